import Dispatch
import FeedApp
import HTTPServer
import Sectional
import SectionalPostgres
import SectionalServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

TerminationSignals.block()

/// The release of Sectional this binary belongs to (`buildCommit` comes from the BuildInfo plugin).
let version = "0.2.0"

/// The process's environment, from `environ`'s `NAME=value` entries.
let environment: [String: String] = {
    var variables: [String: String] = [:]
    var entry = environ
    while let text = entry.pointee.map({ String(cString: $0) }) {
        if let equals = text.firstIndex(of: "=") { variables[String(text[..<equals])] = String(text[text.index(after: equals)...]) }
        entry += 1
    }
    return variables
}()

// `feed-server user …` and `feed-server token …` manage accounts, then exit.
let arguments = Array(CommandLine.arguments.dropFirst())
if AdminCommand.handles(arguments) {
    let outcome = try waitHere { await AdminCommand.run(arguments, environment: environment, readLine: { readLine() }) }
    for line in outcome.output { print(line) }
    for line in outcome.errors { Logger.standardError.write(line) }
    exit(outcome.status)
}

let options: LaunchOptions
do {
    options = try LaunchOptions.parse(CommandLine.arguments.dropFirst(), environment: environment, readFile: readTextFile)
} catch .helpRequested {
    print(LaunchOptions.help)
    exit(0)
} catch .versionRequested {
    print("feed-server \(version) (commit \(buildCommit))")
    exit(0)
} catch {
    Logger.standardError.write("feed-server: \(error)")
    exit(2)
}

/// The process's messages, at the level and in the format asked for.
let log = Logger.standardError.with(level: options.logLevel, format: options.logFormat)

if let unknown = options.simulatedFaults.keys.sorted().first(where: { !allSectionIDs.contains(SectionID($0)) }) {
    log.error(
        "feed-server: --simulate names no section '\(unknown)'; sections: \(allSectionIDs.map(\.rawValue).joined(separator: ", "))")
    exit(2)
}
for (section, fault) in options.simulatedFaults.sorted(by: { $0.key < $1.key }) {
    log.warning("feed-server: SIMULATING \(fault) for section \(section)")
}

// Before the database: a wrong folder must not leave a new, seeded database behind.
var publicInfo = stat()
guard stat(options.publicDirectory, &publicInfo) == 0, publicInfo.st_mode & S_IFMT == S_IFDIR else {
    log.error(
        "feed-server: --public '\(options.publicDirectory)' is not a directory (run from the project's folder, or pass --public DIR)")
    exit(2)
}

// Exit codes: 2 for what was asked wrongly (above), 1 for what failed (below).
let data: AppData
do {
    let (location, connections, seed) = (options.database, options.databaseConnections, options.seed)
    data = try waitHere { try await AppData.open(location, connections: connections, seed: seed) }
} catch {
    log.error("feed-server: \(error)")
    exit(1)
}
guard !data.users.isEmpty else {
    log.error("feed-server: the database has no users; start once without --no-seed to add the demo users")
    exit(1)
}

let readiness = Readiness(pool: data.pool)
let metrics = options.metricsPort.map { _ in ServerMetrics() }
let live = LiveHub(limitPerUser: options.liveStreamsPerUser, limitTotal: options.liveStreams)
// Versions first, then (on PostgreSQL) the changes every replica commits.
do {
    let hub = live
    let loaded = data
    _ = try waitHere { await loaded.loadLiveVersions(into: hub) }
}
let listener: PostgresListener? = if case .postgres(let url) = options.database { live.listening(to: url) } else { nil }
// The metrics listener first: a busy metrics port stops the start before the public port takes any request.
let serving = ServingServer()
var metricsServer: Server?
if let metrics, let port = options.metricsPort {
    metrics.trackRequestsInFlight { serving.requestsInFlight }
    do {
        metricsServer = try startMetricsListener(metrics, host: options.metricsHost, port: port, logger: log)
        log.info("feed-server: metrics on http://\(options.metricsHost):\(metricsServer!.port)/metrics")
    } catch {
        log.error("feed-server: metrics listener: \(error)")
        exit(1)
    }
}
let server: Server
do {
    let router = try buildRouter(
        publicDirectory: options.publicDirectory, data: data, settings: options.appSettings, readiness: readiness, metrics: metrics,
        live: live, logger: log)
    var configuration = options.serverConfiguration
    configuration.requestObserver = metrics?.observe
    // JSON lines go alone on standard output; messages stay on standard error.
    let serverLog = options.logFormat == .json ? Logger.standardOutput.with(level: options.logLevel, format: .json) : log
    server = try Server.start(configuration, responder: router, logger: serverLog)
    serving.set(server)
} catch {
    log.error("feed-server: \(error)")
    exit(1)
}

log.info("feed-server: data in \(options.database)")
log.info("feed-server: listening on http://\(options.host):\(server.port)/feed")
let signal = TerminationSignals.wait()
// First out of the load balancer (/readyz answers 503), still serving; then stop.
// Live streams end first (their pages reconnect to another replica), so stopping stays fast.
live.closeAll()
readiness.startDraining()
server.beginDraining()
if options.drain > .zero {
    log.info("feed-server: signal \(signal), draining for \(options.drain) (/readyz answers 503)")
    drainPause(options.drain)
}
log.info("feed-server: stopping")
server.stop()
metricsServer?.stop()
listener?.stop()
data.pool?.close()
exit(0)

/// The public server once it runs, for the metrics read before it starts.
final class ServingServer: Sendable {
    private let server = Mutex<Server?>(nil)
    func set(_ running: Server) { server.withLock { $0 = running } }
    var requestsInFlight: Int { server.withLock { $0?.requestsInFlight ?? 0 } }
}

/// `/metrics` on a listener of its own: never on the public port by accident.
func startMetricsListener(_ metrics: ServerMetrics, host: String, port: Int, logger: Logger) throws -> Server {
    var router = Router(logger: logger)
    router.getSynchronously("/metrics") { _ in
        Response(contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics.registry.exposition())
    }
    var configuration = ServerConfiguration()
    configuration.host = host
    configuration.port = port
    configuration.threads = 1
    configuration.accessLog = false
    return try Server.start(configuration, responder: router, logger: logger)
}

/// Waits on this thread while the server goes on serving; a second SIGTERM or SIGINT cuts the pause short.
func drainPause(_ duration: Duration) {
    let seconds = Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    TerminationSignals.wait(timeout: seconds)
}

/// A file's text, or `nil` when it cannot be read (a folder, no permission, no such file).
func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { text += buffer[..<count] }
    return ferror(file) == 0 ? String(decoding: text, as: UTF8.self) : nil
}

/// Runs async start-up work and waits for it on this thread. main.swift must
/// not `await` at top level: that makes it async, and the runtime's threads
/// could then start before `TerminationSignals.block()`, so SIGTERM would
/// kill the process instead of reaching `wait()`.
func waitHere<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Mutex<Result<T, any Error>?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            let value = try await work()
            outcome.withLock { $0 = .success(value) }
        } catch {
            outcome.withLock { $0 = .failure(error) }
        }
        done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
}
