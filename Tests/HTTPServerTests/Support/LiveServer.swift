import Foundation
import HTTPServer

/// Runs blocking work (socket reads, `Server.stop()`) on a thread of its own
/// and awaits its result.
///
/// The server answers async routes on Swift's concurrency pool, which has one
/// thread per core. A test that blocked those threads on a socket read would
/// starve the very tasks it waits for; a thread of its own cannot.
func onThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread {
            continuation.resume(with: Swift.Result { try work() })
        }.start()
    }
}

extension ServerConfiguration {
    /// A free port, two worker threads, no access log, and a short grace
    /// period so a test's `stop()` never lingers.
    static func forTests(shutdownGrace: Duration = .milliseconds(500)) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.accessLog = false
        configuration.shutdownGrace = shutdownGrace
        return configuration
    }
}

/// Starts a server for `responder` on a free port, runs `body` with it and stops it.
func withServer<Result: Sendable>(
    _ responder: some Responder,
    configuration: ServerConfiguration = .forTests(),
    logger: Logger = LogCollector().logger,
    _ body: (Server) async throws -> Result
) async throws -> Result {
    let server = try Server.start(configuration, responder: responder, logger: logger)
    do {
        let result = try await body(server)
        try await onThread { server.stop() }
        return result
    } catch {
        try await onThread { server.stop() }
        throw error
    }
}

/// The routes the live tests talk to over a real socket.
enum LiveRoutes {
    static let hello = "hello, world\n"

    /// `/hello` answers at once; `/echo?v=X` answers `X` from a task after a
    /// short sleep, so the connection is suspended and resumed.
    static func router(staticFiles: StaticFiles? = nil, logger: Logger = LogCollector().logger) -> Router {
        var router = Router(staticFiles: staticFiles, logger: logger)
        router.getImmediately("/hello") { _ in hello }
        router.get("/echo") { request in
            try await Task.sleep(for: .milliseconds(2))
            return request.queryValue("v") ?? ""
        }
        return router
    }
}
