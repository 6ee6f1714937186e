import FeedApp
import Foundation
import HTTPServer

TerminationSignals.block()

let options: LaunchOptions
do {
    options = try LaunchOptions.parse(CommandLine.arguments.dropFirst(), environment: ProcessInfo.processInfo.environment)
} catch .helpRequested {
    print(LaunchOptions.help)
    exit(0)
} catch {
    FileHandle.standardError.write(Data("feed-server: \(error)\n".utf8))
    exit(2)
}

let server: Server
do {
    let router = try buildRouter(publicDirectory: options.publicDirectory)
    server = try Server.start(options.serverConfiguration, responder: router)
} catch {
    FileHandle.standardError.write(Data("feed-server: \(error)\n".utf8))
    exit(2)
}

Logger.standardError.log("feed-server: listening on http://\(options.host):\(server.port)/feed")
let signal = TerminationSignals.wait()
Logger.standardError.log("feed-server: signal \(signal), stopping")
server.stop()
exit(0)
