import FeedApp
import HTTPServer
import Testing

/// `feed-server`'s flags and `PORT`: what each sets, and the one-line
/// problem a mistyped command line gets.
@Suite struct LaunchOptionsTests {
    typealias Problem = LaunchOptions.Problem

    @Test func defaultsListenOnLoopback8080WithTheAccessLog() throws {
        let options = try LaunchOptions.parse([])
        #expect(options.host == "127.0.0.1")
        #expect(options.port == 8080)
        #expect(options.publicDirectory == "Public")
        #expect(options.threads == ServerConfiguration.processorCount)
        #expect(options.quiet == false)
        #expect(options.serverConfiguration.requestHeadTimeout == .seconds(10))

        let configuration = options.serverConfiguration
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 8080)
        #expect(configuration.accessLog)
    }

    @Test func portComesFromTheEnvironment() throws {
        #expect(try LaunchOptions.parse([], environment: ["PORT": "9090"]).port == 9090)
        #expect(try LaunchOptions.parse([], environment: ["PORT": "0"]).port == 0)
        #expect(try LaunchOptions.parse([], environment: ["HOME": "/home/someone"]).port == 8080)
    }

    @Test func portFlagWinsOverTheEnvironment() throws {
        let options = try LaunchOptions.parse(["--port", "7070"], environment: ["PORT": "9090"])
        #expect(options.port == 7070)
    }

    @Test func eachFlagSetsItsOption() throws {
        let options = try LaunchOptions.parse([
            "--host", "0.0.0.0", "--port", "8181", "--public", "site/static", "--threads", "3", "--quiet", "--head-timeout", "4s",
        ])
        var expected = LaunchOptions()
        expected.host = "0.0.0.0"
        expected.port = 8181
        expected.publicDirectory = "site/static"
        expected.threads = 3
        expected.quiet = true
        expected.headTimeout = .seconds(4)
        #expect(options == expected)

        let configuration = options.serverConfiguration
        #expect(configuration.host == "0.0.0.0")
        #expect(configuration.port == 8181)
        #expect(configuration.threads == 3)
        #expect(!configuration.accessLog)
        #expect(configuration.requestHeadTimeout == .seconds(4))
    }

    @Test func shortFlags() throws {
        #expect(try LaunchOptions.parse(["-q"]).quiet)
        #expect(throws: Problem.helpRequested) { try LaunchOptions.parse(["-h"]) }
        #expect(throws: Problem.helpRequested) { try LaunchOptions.parse(["--port", "1", "--help"]) }
        #expect(throws: Problem.versionRequested) { try LaunchOptions.parse(["--version"]) }
    }

    @Test("--log-level and --log-format set how the process logs, from a flag or the environment")
    func logging() throws {
        let options = try LaunchOptions.parse(["--log-level", "debug"], environment: ["SECTIONAL_LOG_FORMAT": "json"])
        #expect(options.logLevel == .debug)
        #expect(options.logFormat == .json)
        #expect(try LaunchOptions.parse([]).logLevel == .info)
    }

    @Test("--section-cache takes a size in bytes, KB, MB or GB, or 0 for none; anything else is refused")
    func sectionCache() throws {
        #expect(try LaunchOptions.parse([]).appSettings.sectionCacheBytes == 32 << 20)
        #expect(try LaunchOptions.parse(["--section-cache", "512KB"]).appSettings.sectionCacheBytes == 512 << 10)
        #expect(try LaunchOptions.parse(["--section-cache", "2gb"]).sectionCacheBytes == 2 << 30)
        #expect(try LaunchOptions.parse(["--section-cache", "0"]).sectionCacheBytes == 0)
        #expect(try LaunchOptions.parse([], environment: ["SECTIONAL_SECTION_CACHE": "8MB"]).sectionCacheBytes == 8 << 20)
        for bad in ["lots", "-1MB", "5GB", "12TB", "MB"] {
            #expect(throws: Problem.invalidValue(flag: "--section-cache", value: bad, expected: "a size such as 32MB, 512KB or 0 (at most 4GB)")) {
                try LaunchOptions.parse(["--section-cache", bad])
            }
        }
    }

    @Test("--post-limit takes posts a minute, 60 unless told, 0 for no limit; anything else is refused")
    func postLimit() throws {
        #expect(try LaunchOptions.parse([]).appSettings.postsPerMinute == 60)
        #expect(try LaunchOptions.parse(["--post-limit", "600"]).appSettings.postsPerMinute == 600)
        #expect(try LaunchOptions.parse(["--post-limit", "0"]).appSettings.postsPerMinute == 0)
        #expect(try LaunchOptions.parse([], environment: ["SECTIONAL_POST_LIMIT": "5"]).postsPerMinute == 5)
        for bad in ["many", "-1", "1.5", "2000000"] {
            #expect(throws: Problem.invalidValue(flag: "--post-limit", value: bad, expected: "posts a minute (0-1000000)")) {
                try LaunchOptions.parse(["--post-limit", bad])
            }
        }
    }

    @Test func laterFlagWins() throws {
        #expect(try LaunchOptions.parse(["--port", "1", "--port", "2"]).port == 2)
    }

    @Test(arguments: [
        (["--verbose"], Problem.unknownFlag("--verbose")),
        (["8080"], Problem.unknownFlag("8080")),
        (["--quiet", "-p", "80"], Problem.unknownFlag("-p")),
        (["--port"], Problem.missingValue("--port")),
        (["--host"], Problem.missingValue("--host")),
        (["--public"], Problem.missingValue("--public")),
        (["--quiet", "--threads"], Problem.missingValue("--threads")),
        (["--port", "http"], Problem.invalidValue(flag: "--port", value: "http", expected: "a port number (0-65535)")),
        (["--port", "65536"], Problem.invalidValue(flag: "--port", value: "65536", expected: "a port number (0-65535)")),
        (["--port", "-1"], Problem.invalidValue(flag: "--port", value: "-1", expected: "a port number (0-65535)")),
        (["--port", ""], Problem.invalidValue(flag: "--port", value: "", expected: "a port number (0-65535)")),
        (["--threads", "0"], Problem.invalidValue(flag: "--threads", value: "0", expected: "a thread count (1-256)")),
        (["--threads", "257"], Problem.invalidValue(flag: "--threads", value: "257", expected: "a thread count (1-256)")),
        (["--threads", "two"], Problem.invalidValue(flag: "--threads", value: "two", expected: "a thread count (1-256)")),
        (["--head-timeout"], Problem.missingValue("--head-timeout")),
        (["--head-timeout", "0s"], Problem.invalidValue(flag: "--head-timeout", value: "0s", expected: "a duration such as 5s or 500ms")),
        (["--head-timeout", "soon"], Problem.invalidValue(flag: "--head-timeout", value: "soon", expected: "a duration such as 5s or 500ms")),
        (["--log-level", "verbose"], Problem.invalidValue(flag: "--log-level", value: "verbose", expected: "debug, info, warning or error")),
        (["--log-format", "xml"], Problem.invalidValue(flag: "--log-format", value: "xml", expected: "text or json")),
    ])
    func badCommandLineNamesTheProblem(arguments: [String], problem: Problem) {
        #expect(throws: problem) { try LaunchOptions.parse(arguments) }
    }

    @Test(arguments: ["eighty", "70000", "-5"])
    func badPortInTheEnvironmentNamesPORT(value: String) {
        #expect(throws: Problem.invalidValue(flag: "PORT", value: value, expected: "a port number (0-65535)")) {
            try LaunchOptions.parse([], environment: ["PORT": value])
        }
    }

    @Test func problemsReadAsOneActionableLine() {
        #expect(Problem.unknownFlag("--verbose").description == "unknown flag '--verbose' (see --help)")
        #expect(Problem.missingValue("--port").description == "--port needs a value (see --help)")
        let invalid = Problem.invalidValue(flag: "--port", value: "http", expected: "a port number (0-65535)")
        #expect(invalid.description == "--port 'http' is not a port number (0-65535)")
        for problem in [Problem.unknownFlag("-x"), .missingValue("--host"), invalid] {
            #expect(!problem.description.contains("\n"))
        }
    }

    @Test func helpMentionsEveryFlag() {
        for flag in ["--host", "--port", "--public", "--threads", "--quiet", "--head-timeout", "--help", "$PORT"] {
            #expect(LaunchOptions.help.contains(flag), "\(flag)")
        }
    }

    @Test("Every option comes from the environment too: SECTIONAL_ and the flag's name, a switch as true or false, commas between repeated values")
    func fromTheEnvironment() throws {
        let options = try LaunchOptions.parse(
            [],
            environment: [
                "SECTIONAL_SESSION_IDLE": "2h", "SECTIONAL_QUIET": "true", "SECTIONAL_NO_STREAM": "false",
                "SECTIONAL_TRUSTED_PROXY": "10.0.0.1, 10.0.0.2", "SECTIONAL_DATABASE": "memory:", "HOME": "/root",
                "SECTIONAL_TEST_POSTGRES": "postgres://app@127.0.0.1:1/postgres",
            ])
        #expect(options.accounts.sessionIdle == .seconds(7_200))
        #expect(options.quiet && options.streaming)
        #expect(options.accounts.trustedProxies == ["10.0.0.1", "10.0.0.2"])
        #expect(options.database == .memory)
        // Empty is unset, as `docker run -e PORT=` leaves it.
        #expect(try LaunchOptions.parse([], environment: ["PORT": "", "SECTIONAL_THREADS": ""]) == LaunchOptions())
    }

    @Test("A configuration file, then the environment, then the flags: each wins over the one before")
    func precedence() throws {
        let file = """
            # the team's settings
            session-idle = 1h
            threads = 3   # two cores and a spare
            quiet = yes

            """
        let read: (String) -> String? = { $0 == "team.conf" ? file : nil }
        let fromFile = try LaunchOptions.parse(["--config", "team.conf"], readFile: read)
        #expect(fromFile.accounts.sessionIdle == .seconds(3_600) && fromFile.threads == 3 && fromFile.quiet)
        let overridden = try LaunchOptions.parse(
            ["--threads", "5"], environment: ["SECTIONAL_CONFIG": "team.conf", "SECTIONAL_THREADS": "4", "SECTIONAL_SESSION_IDLE": "2h"],
            readFile: read)
        #expect(overridden.threads == 5, "the flag over the environment")
        #expect(overridden.accounts.sessionIdle == .seconds(7_200), "the environment over the file")
        #expect(overridden.quiet, "the file where nothing else says")
    }

    @Test(
        "A setting that names no option, or a bad value, is one line naming where it came from",
        arguments: [
            (["SECTIONAL_SESION_IDLE": "2h"], "", Problem.unknownSetting("SECTIONAL_SESION_IDLE")),
            (["SECTIONAL_THREADS": "many"], "", .invalidValue(flag: "SECTIONAL_THREADS", value: "many", expected: "a thread count (1-256)")),
            (["SECTIONAL_QUIET": "maybe"], "", .invalidValue(flag: "SECTIONAL_QUIET", value: "maybe", expected: "true or false")),
            (["SECTIONAL_CONFIG": "team.conf"], "verbose = true", .unknownSetting("verbose (line 1 of the configuration)")),
            (["SECTIONAL_CONFIG": "team.conf"], "\nport: 80", .invalidValue(flag: "--config", value: "line 2: port: 80", expected: "name = value")),
            (["SECTIONAL_CONFIG": "missing.conf"], "", .invalidValue(flag: "--config", value: "missing.conf", expected: "a file that can be read")),
        ])
    func badSettings(environment: [String: String], file: String, problem: Problem) {
        #expect(throws: problem) {
            try LaunchOptions.parse([], environment: environment, readFile: { $0 == "team.conf" ? file : nil })
        }
    }

    @Test("--environment development stops at once unless --drain says otherwise; production keeps the 3 s drain")
    func environment() throws {
        #expect(try LaunchOptions.parse([]).environment == .production)
        #expect(try LaunchOptions.parse([]).drain == .seconds(3))
        let development = try LaunchOptions.parse(["--environment", "development"])
        #expect(development.environment == .development && development.drain == .zero)
        #expect(try LaunchOptions.parse(["--environment", "development", "--drain", "2s"]).drain == .seconds(2))
        #expect(try LaunchOptions.parse([], environment: ["SECTIONAL_ENV": "development"]).environment == .development)
        #expect(throws: Problem.invalidValue(flag: "--environment", value: "staging", expected: "development or production")) {
            try LaunchOptions.parse(["--environment", "staging"])
        }
    }
}
