import HTTPServer

/// Builds the router that production serves and tests call: every page,
/// endpoint and static file of the app.
public func buildRouter(publicDirectory: String, logger: Logger = .standardError) throws(ServerError) -> Router {
    var router = Router(staticFiles: try StaticFiles(directory: publicDirectory), logger: logger)
    router.getImmediately("/healthz") { _ in "ok" }
    return router
}
