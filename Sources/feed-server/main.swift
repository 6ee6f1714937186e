import Dispatch
import FeedApp
import HTTPServer
import Sectional
import SectionalAccounts
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
    let outcome = try ServiceGroup.waitHere { await AdminCommand.run(arguments, environment: environment, readLine: { readLine() }) }
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

// Each live stream holds an open file: streams past what the limit leaves beside the pages' share
// are refused (429), so that pages are still answered.
let liveStreams = DescriptorLimit.room(for: options.liveStreams, besides: options.serverConfiguration(liveStreams: 0))
if liveStreams < options.liveStreams {
    log.warning(
        "feed-server: room for \(liveStreams) live streams, not the \(options.liveStreams) asked for: the open files allowed (ulimit -Hn) keep the rest for pages; raise that limit for more"
    )
}

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
// Each part starts where it is declared and stops, in reverse, on SIGTERM or SIGINT (or when a later one fails to start).
let services = ServiceGroup(logger: log)
do {
    let (location, connections, seed) = (options.database, options.databaseConnections, options.seed)
    let data = try services.start(
        "the database", { try await AppData.open(location, connections: connections, seed: seed) },
        stop: { $0.pool?.close() })
    guard !data.users.isEmpty else {
        log.error("feed-server: the database has no users; start once without --no-seed to add the demo users")
        services.stopAll()
        exit(1)
    }
    let readiness = Readiness(pool: data.pool)
    let metrics = options.metricsPort.map { _ in ServerMetrics() }
    // Versions first, then (on PostgreSQL) the changes every replica commits. Live streams end
    // first when draining (their pages reconnect to another replica), so stopping stays fast.
    let live = try services.start(
        "live sections",
        { [limitPerUser = options.liveStreamsPerUser, limitTotal = liveStreams] in
            let hub = LiveHub(limitPerUser: limitPerUser, limitTotal: limitTotal)
            await data.loadLiveVersions(into: hub)
            return hub
        }, drain: { $0.closeAll() })
    switch options.database {
    case .postgres(let url):
        _ = try services.start("the live listener", { live.listening(to: url) }, stop: { $0.stop() })
    case .sqlite(let path):
        _ = try services.start(
            "the watch on other writers", { try await live.watchingOtherWriters(of: path) }, stop: { $0.stop() })
    case .memory:
        break  // nobody else can write to it
    }
    // The metrics listener before the public port: a busy metrics port stops the start before the public port takes any request.
    let serving = ServingServer()
    if let metrics, let port = options.metricsPort {
        metrics.trackRequestsInFlight { serving.requestsInFlight }
        let metricsServer = try services.start(
            "the metrics listener", { try startMetricsListener(metrics, host: options.metricsHost, port: port, logger: log) },
            stop: { $0.stop() })
        log.info("feed-server: metrics on http://\(options.metricsHost):\(metricsServer.port)/metrics")
    }
    let router = try buildRouter(
        publicDirectory: options.publicDirectory, data: data, settings: options.appSettings, readiness: readiness, metrics: metrics,
        live: live, logger: log)
    var configuration = options.serverConfiguration(liveStreams: liveStreams)
    configuration.requestObserver = metrics?.observe
    // JSON lines go alone on standard output; messages stay on standard error.
    let serverLog = options.logFormat == .json ? Logger.standardOutput.with(level: options.logLevel, format: .json) : log
    // Draining: out of the load balancer (/readyz answers 503), still serving, every answer closing its connection.
    let server = try services.start(
        "the server", { try Server.start(configuration, responder: router, logger: serverLog) },
        drain: { server in
            readiness.startDraining()
            server.beginDraining()
        }, stop: { $0.stop() })
    serving.set(server)
    log.info("feed-server: data in \(options.database)")
    log.info("feed-server: listening on http://\(options.host):\(server.port)/feed")
} catch {
    log.error("feed-server: \(error)")
    exit(1)
}
services.runUntilSignalled(drain: options.drain)
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

/// A file's text, or `nil` when it cannot be read (a folder, no permission, no such file).
func readTextFile(_ path: String) -> String? {
    guard let file = fopen(path, "r") else { return nil }
    defer { fclose(file) }
    var text: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while case let count = fread(&buffer, 1, buffer.count, file), count > 0 { text += buffer[..<count] }
    return ferror(file) == 0 ? String(decoding: text, as: UTF8.self) : nil
}
