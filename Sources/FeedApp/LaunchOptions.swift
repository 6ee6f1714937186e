import HTTPServer
import SectionalAccounts
import SectionalSQL

/// The flags and environment `feed-server` starts with.
public struct LaunchOptions: Equatable, Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var publicDirectory = "Public"
    public var threads = ServerConfiguration.processorCount
    public var quiet = false
    /// How long a request's line and headers may take to arrive.
    public var headTimeout: Duration = .seconds(10)
    /// How long a section's data load may take before it shows its fallback.
    public var sectionTimeout: Duration = .seconds(1)
    /// Whether pages stream their sections as they finish.
    public var streaming = true
    /// Faults injected into section loads, by section id; none unless asked for.
    public var simulatedFaults: [String: SimulatedFault] = [:]
    /// Where the data lives.
    public var database = DatabaseLocation.defaultLocation
    /// Whether an empty database gets the demo data.
    public var seed = true
    /// PostgreSQL connections for reads, pipelined, and as many for writes.
    public var databaseConnections = max(2, ServerConfiguration.processorCount)
    /// Sessions, trusted proxies and sign-in limits.
    public var accounts = AccountSettings()
    /// After SIGTERM, how long `/readyz` says 503 while requests are still served, before stopping.
    public var drain: Duration = .seconds(3)
    /// Where `/metrics` is served: off unless a port is given; loopback unless told otherwise.
    public var metricsPort: Int?
    public var metricsHost = "127.0.0.1"
    /// How log lines are written: text, or one JSON object a line (the access log's then alone on standard output).
    public var logFormat = Logger.Format.text
    /// Log lines below this level are dropped.
    public var logLevel = Logger.Level.info
    /// Live page streams per user, and in all: the server takes that many connections beside the 1,024 it keeps for pages.
    public var liveStreamsPerUser = 8
    public var liveStreams = 256
    /// Development shows errors where they happen and stops at once (no drain unless asked for).
    public var environment = AppEnvironment.production
    /// The most rendered sections kept between requests may hold, in bytes; 0 keeps none.
    public var sectionCacheBytes = AppSettings.defaultSectionCacheBytes
    /// Form posts a client may send a minute, sixty of them at once; 0 sets no limit.
    public var postsPerMinute = 60

    public init() {}

    /// Why the flags could not be used: printed as one line, exit code 2.
    public enum Problem: Error, Equatable, CustomStringConvertible {
        case helpRequested
        case versionRequested
        case unknownFlag(String)
        /// An environment variable or a configuration line that stands for no flag.
        case unknownSetting(String)
        case missingValue(String)
        case invalidValue(flag: String, value: String, expected: String)

        public var description: String {
            switch self {
            case .helpRequested: "help requested"
            case .versionRequested: "version requested"
            case .unknownFlag(let flag): "unknown flag '\(flag)' (see --help)"
            case .unknownSetting(let source): "\(source) names no option (see --help)"
            case .missingValue(let flag): "\(flag) needs a value (see --help)"
            case .invalidValue(let flag, let value, let expected): "\(flag) '\(value)' is not \(expected)"
            }
        }
    }

    /// Reads the options from, in rising order of precedence, a configuration
    /// file (`--config FILE` or `SECTIONAL_CONFIG`), the environment
    /// (`SECTIONAL_SESSION_IDLE` for `--session-idle`, and so on; `PORT` and
    /// `DATABASE_URL` too), and the flags (without the program name).
    /// `readFile` gives a file's text, or `nil` when it cannot be read.
    public static func parse(
        _ arguments: some Sequence<String>, environment: [String: String] = [:],
        readFile: (String) -> String? = { _ in nil }
    ) throws(Problem) -> LaunchOptions {
        let arguments = Array(arguments)
        var configured: [ConfigurationSources.Word] = []
        if let path = configPath(in: arguments) ?? environment["SECTIONAL_CONFIG"] {
            guard let text = readFile(path) else { throw .invalidValue(flag: "--config", value: path, expected: "a file that can be read") }
            configured = try ConfigurationSources.flags(inFile: text)
        }
        let given = arguments.map { ConfigurationSources.Word($0, from: $0) }
        return try parseFlags(configured + (try ConfigurationSources.flags(inEnvironment: environment)) + given)
    }

    /// `--config FILE` among the flags, if given.
    private static func configPath(in arguments: [String]) -> String? {
        guard let index = arguments.firstIndex(of: "--config"), index + 1 < arguments.count else { return nil }
        return arguments[index + 1]
    }

    /// The options the words ask for; a problem names each word's source
    /// (the flag, the environment variable, the file's line).
    private static func parseFlags(_ words: [ConfigurationSources.Word]) throws(Problem) -> LaunchOptions {
        var options = LaunchOptions()
        var remaining = words[...]
        while let word = remaining.popFirst() {
            let (flag, source) = (word.text, word.source)
            func value() throws(Problem) -> String {
                guard let value = remaining.popFirst() else { throw .missingValue(source) }
                return value.text
            }
            switch flag {
            case "--help", "-h": throw .helpRequested
            case "--version": throw .versionRequested
            case "--config": _ = try value()  // read before the flags
            case "--quiet", "-q": options.quiet = true
            case "--host": options.host = try value()
            case "--public": options.publicDirectory = try value()
            case "--port": options.port = try number(try value(), flag: source, in: 0...65535, expected: "a port number (0-65535)")
            case "--threads": options.threads = try number(try value(), flag: source, in: 1...256, expected: "a thread count (1-256)")
            case "--no-stream": options.streaming = false
            case "--no-seed": options.seed = false
            case "--database":
                let text = try value()
                guard let location = DatabaseLocation(text) else {
                    throw .invalidValue(
                        flag: source, value: DatabaseLocation.withoutPassword(text), expected: "sqlite:PATH, postgres://USER@HOST:PORT/DB or memory:")
                }
                options.database = location
            case "--live-streams":
                options.liveStreams = try number(try value(), flag: source, in: 0...100_000, expected: "a stream count (0-100000)")
            case "--live-streams-per-user":
                options.liveStreamsPerUser = try number(try value(), flag: source, in: 1...100_000, expected: "a stream count (1-100000)")
            case "--post-limit":
                options.postsPerMinute = try number(try value(), flag: source, in: 0...1_000_000, expected: "posts a minute (0-1000000)")
            case "--section-cache":
                let text = try value()
                guard let bytes = Self.parseByteSize(text) else {
                    throw .invalidValue(flag: source, value: text, expected: "a size such as 32MB, 512KB or 0 (at most 4GB)")
                }
                options.sectionCacheBytes = bytes
            case "--metrics-port":
                options.metricsPort = try number(try value(), flag: source, in: 0...65535, expected: "a port number (0-65535)")
            case "--metrics-host": options.metricsHost = try value()
            case "--log-format":
                let text = try value()
                guard let format = Logger.Format(rawValue: text) else { throw .invalidValue(flag: source, value: text, expected: "text or json") }
                options.logFormat = format
            case "--log-level":
                let text = try value()
                guard let level = Logger.Level(text) else {
                    throw .invalidValue(flag: source, value: text, expected: "debug, info, warning or error")
                }
                options.logLevel = level
            case "--drain":
                let text = try value()
                guard let duration = parseDuration(text) else {
                    throw .invalidValue(flag: source, value: text, expected: "a duration such as 5s or 0s")
                }
                options.drain = duration
            case "--session-idle", "--session-lifetime":
                let text = try value()
                guard let duration = parseSessionDuration(text) else {
                    throw .invalidValue(flag: source, value: text, expected: "a duration such as 30m, 12h or 7d")
                }
                if flag == "--session-idle" { options.accounts.sessionIdle = duration } else { options.accounts.sessionLifetime = duration }
            case "--trusted-proxy":
                let text = try value()
                guard text.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }), !text.isEmpty else {
                    throw .invalidValue(flag: source, value: text, expected: "an IP address such as 127.0.0.1")
                }
                options.accounts.trustedProxies.insert(text)
            case "--db-connections":
                options.databaseConnections = try number(try value(), flag: source, in: 1...64, expected: "a connection count (1-64)")
            case "--head-timeout":
                let text = try value()
                guard let timeout = parseDuration(text), timeout > .zero else {
                    throw .invalidValue(flag: source, value: text, expected: "a duration such as 5s or 500ms")
                }
                options.headTimeout = timeout
            case "--section-timeout":
                let text = try value()
                guard let timeout = parseDuration(text), timeout > .zero else {
                    throw .invalidValue(flag: source, value: text, expected: "a duration such as 300ms or 2s")
                }
                options.sectionTimeout = timeout
            case "--environment":
                let text = try value()
                guard let environment = AppEnvironment(rawValue: text) else {
                    throw .invalidValue(flag: source, value: text, expected: "development or production")
                }
                options.environment = environment
            case "--simulate":
                let text = try value()
                guard let (section, fault) = SimulatedFault.parse(text) else {
                    throw .invalidValue(
                        flag: source, value: text, expected: "SECTION=delay:DURATION, SECTION=error, SECTION=error:N, SECTION=hang or SECTION=trap")
                }
                options.simulatedFaults[section] = fault
            default: throw .unknownFlag(source)
            }
        }
        // A developer's Ctrl-C stops at once; a load balancer's drain is production's.
        if options.environment == .development && !words.contains(where: { $0.text == "--drain" }) { options.drain = .zero }
        return options
    }

    private static func number(_ text: String, flag: String, in range: ClosedRange<Int>, expected: String) throws(Problem) -> Int {
        guard let number = Int(text), range.contains(number) else {
            throw .invalidValue(flag: flag, value: text, expected: expected)
        }
        return number
    }

    /// How the app's pages load and send their sections, and its sessions.
    public var appSettings: AppSettings {
        AppSettings(
            sectionTimeout: sectionTimeout, streaming: streaming, simulatedFaults: simulatedFaults, accounts: accounts, environment: environment,
            sectionCacheBytes: sectionCacheBytes, postsPerMinute: postsPerMinute)
    }

    /// `32MB`, `512KB`, `1GB`, or a number of bytes: at most 4 GB.
    static func parseByteSize(_ text: String) -> Int? {
        let units = [("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10), ("B", 1)]
        let (digits, unit) = units.first { text.uppercased().hasSuffix($0.0) }.map { (text.dropLast($0.0.count), $0.1) } ?? (Substring(text), 1)
        guard let number = Int(digits), number >= 0, number <= (4 << 30) / unit else { return nil }
        return number * unit
    }

    /// `30m`, `12h`, `7d` (or seconds, `90s`): from a minute to a year.
    static func parseSessionDuration(_ text: String) -> Duration? {
        let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3_600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let number = Int64(text.dropLast()), number > 0 else { return nil }
        let seconds = number.multipliedReportingOverflow(by: unit)
        guard !seconds.overflow, (60...366 * 86_400).contains(seconds.partialValue) else { return nil }
        return .seconds(seconds.partialValue)
    }

    /// The server configuration these options ask for.
    public var serverConfiguration: ServerConfiguration { serverConfiguration(liveStreams: liveStreams) }

    /// The server configuration these options ask for, with room for `liveStreams` streams beside the pages.
    public func serverConfiguration(liveStreams: Int) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.threads = threads
        configuration.accessLog = !quiet
        configuration.requestHeadTimeout = headTimeout
        // Pages keep the connections they always had; the live streams get as many more.
        configuration.connectionLimit += liveStreams
        // What a request reads before it first waits goes to the database together: one snapshot on SQLite.
        configuration.startingRequests = { StatementBurst.together($0) }
        return configuration
    }
}
