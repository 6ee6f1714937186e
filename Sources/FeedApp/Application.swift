import HTTPServer

/// Builds the router that production serves and tests call: every page,
/// endpoint and static file of the app.
public func buildRouter(
    publicDirectory: String,
    feedStore: any FeedStore = DemoFeedStore(),
    dayStore: any DayStore = DemoDayStore(),
    settings: PageSettings = PageSettings(),
    logger: Logger = .standardError
) throws(ServerError) -> Router {
    var router = Router(staticFiles: try StaticFiles(directory: publicDirectory), logger: logger)
    router.errorResponder = ErrorResponses.respond
    router.getImmediately("/healthz") { _ in "ok" }
    router.getImmediately("/") { _ in
        Response(status: .seeOther, headers: ["Location": "/feed"])
    }
    PageRoutes(page: FeedPage(store: feedStore), settings: settings, logger: logger).register(on: &router)
    PageRoutes(page: DayPage(store: dayStore), settings: settings, logger: logger).register(on: &router)
    return router
}

/// Every section id the app's pages know, for checking `--simulate`.
public let allSectionIDs: [String] = FeedPage(store: DemoFeedStore()).catalog.ids + DayPage(store: DemoDayStore()).catalog.ids
