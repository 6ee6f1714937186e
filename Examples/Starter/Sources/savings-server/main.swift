import HTTPServer
import Savings
import SectionalAccounts
import SectionalSQL
import SectionalSQLite
import SectionalServer

#if canImport(Glibc)
    import Glibc
#endif

// savings-server [--port PORT] [--database PATH] [--demo]: serves /goals.
// --demo adds the user `demo` (password `demo-savings`) to an empty database.
TerminationSignals.block()

var configuration = ServerConfiguration()
configuration.port = 8080
var database = "savings.sqlite"
var demo = false
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    switch flag {
    case "--port": configuration.port = arguments.popFirst().flatMap { Int($0) } ?? -1
    case "--database": database = arguments.popFirst() ?? ""
    case "--demo": demo = true
    default: configuration.port = -1
    }
    guard (0...65535).contains(configuration.port), !database.isEmpty else {
        Logger.standardError.error("usage: savings-server [--port PORT] [--database PATH] [--demo]")
        exit(2)
    }
}

let log = Logger.standardError
let services = ServiceGroup(logger: log)
do {
    let path = database
    let (pool, formKey) = try services.start("the database", { try SavingsApp.openDatabase(path) }, stop: { $0.pool.close() })
    let hasDemoUser = try demo && ServiceGroup.waitHere(for: { try await SavingsApp.addDemoUser(to: pool) })
    if hasDemoUser { log.info("savings-server: sign in as \(SavingsApp.demoUser.name), password \(SavingsApp.demoUser.password)") }
    let live = try services.start(
        "live sections",
        {
            let hub = LiveHub()
            try LiveVersions.load(into: hub, from: SQLiteConnection(path: path, readOnly: true))
            return hub
        }, drain: { $0.closeAll() })
    // A change made outside the server (sqlite3, a batch job) reaches open pages too.
    _ = try services.start(
        "the watch on other writers",
        {
            try await SQLiteVersionWatcher.start(updating: live, every: .milliseconds(20)) { () throws(SQLError) in
                try SQLiteConnection(path: path, readOnly: true)
            }
        }, stop: { $0.stop() })
    let router = try SavingsApp.router(
        pool: pool, live: live, formKey: formKey, publicDirectory: "Public", demoUsers: hasDemoUser ? [SavingsApp.demoUser] : [], logger: log)
    // What a request reads before it first waits is read from one snapshot, in one transaction.
    configuration.startingRequests = { StatementBurst.together($0) }
    let server = try services.start(
        "the server", { try Server.start(configuration, responder: router, logger: log) }, drain: { $0.beginDraining() },
        stop: { $0.stop() })
    log.info("savings-server: listening on http://\(configuration.host):\(server.port)/goals")
} catch {
    log.error("savings-server: \(error)")
    exit(1)
}
exit(services.runUntilSignalled(drain: .zero))
