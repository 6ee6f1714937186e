import Glibc
import HTTPServer
import ReferencePage

// reference-server [--port PORT]: serves the reference page at /feed.
TerminationSignals.block()

var configuration = ServerConfiguration()
configuration.port = 8080
configuration.accessLog = false
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard flag == "--port", let value = arguments.popFirst(), let port = Int(value), (0...65535).contains(port) else {
        Logger.standardError.write("usage: reference-server [--port PORT]")
        exit(2)
    }
    configuration.port = port
}

let server: Server
do {
    let router = ReferenceApp.router(store: InMemoryReferenceStore(try ReferenceData.bundled()))
    server = try Server.start(configuration, responder: router)
} catch {
    Logger.standardError.error("reference-server: \(error)")
    exit(2)
}
Logger.standardError.info("reference-server: listening on http://\(configuration.host):\(server.port)/feed")
_ = TerminationSignals.wait()
server.stop()
exit(0)
