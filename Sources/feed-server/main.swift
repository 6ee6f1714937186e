import FeedApp
import FoundationEssentials
import HTTPServer
import Sectional

#if canImport(Glibc)
    import Glibc
#endif

TerminationSignals.block()

let options: LaunchOptions
do {
    options = try LaunchOptions.parse(CommandLine.arguments.dropFirst(), environment: ProcessInfo.processInfo.environment)
} catch .helpRequested {
    print(LaunchOptions.help)
    exit(0)
} catch {
    Logger.standardError.log("feed-server: \(error)")
    exit(2)
}

if let unknown = options.simulatedFaults.keys.sorted().first(where: { !allSectionIDs.contains(SectionID($0)) }) {
    Logger.standardError.log(
        "feed-server: --simulate names no section '\(unknown)'; sections: \(allSectionIDs.map(\.rawValue).joined(separator: ", "))")
    exit(2)
}
for (section, fault) in options.simulatedFaults.sorted(by: { $0.key < $1.key }) {
    Logger.standardError.log("feed-server: SIMULATING \(fault) for section \(section)")
}

let data: AppData
do {
    data = try await AppData.open(options.database, connections: options.databaseConnections, seed: options.seed)
} catch {
    Logger.standardError.log("feed-server: \(error)")
    exit(2)
}
guard !data.users.isEmpty else {
    Logger.standardError.log("feed-server: the database has no users; start once without --no-seed to add the demo users")
    exit(2)
}

let server: Server
do {
    let router = try buildRouter(publicDirectory: options.publicDirectory, data: data, settings: options.appSettings)
    server = try Server.start(options.serverConfiguration, responder: router)
} catch {
    Logger.standardError.log("feed-server: \(error)")
    exit(2)
}

Logger.standardError.log("feed-server: data in \(options.database)")
Logger.standardError.log("feed-server: listening on http://\(options.host):\(server.port)/feed")
let signal = TerminationSignals.wait()
Logger.standardError.log("feed-server: signal \(signal), stopping")
server.stop()
data.pool?.close()
exit(0)
