import HTTPServer
import SectionalTesting

/// The routes the live tests talk to over a real socket.
enum LiveRoutes {
    static let hello = "hello, world\n"

    /// `/hello` answers at once; `/echo?v=X` answers `X` from a task after a
    /// short sleep, so the connection is suspended and resumed.
    static func router(staticFiles: StaticFiles? = nil, logger: Logger = LogCollector().logger) -> Router {
        var router = Router(staticFiles: staticFiles, logger: logger)
        router.getSynchronously("/hello") { _ in hello }
        router.on(.post, "/upload") { _ in "stored" }
        router.get("/echo") { request in
            try await Task.sleep(for: .milliseconds(2))
            return request.queryValue("v") ?? ""
        }
        return router
    }
}
