import HTTPServer
import Sectional
import SectionalServer

/// Builds the router that production serves and tests call: every page,
/// endpoint and static file of the app.
public func buildRouter(
    publicDirectory: String,
    feedStore: any FeedStore = DemoFeedStore(),
    dayStore: any DayStore = DemoDayStore(),
    settings: AppSettings = AppSettings(),
    clock: any Clock<Duration> = ContinuousClock(),
    logger: Logger = .standardError
) throws(ServerError) -> Router {
    let site = Site(
        name: "Sectional",
        head: DocumentHead(
            language: "en", viewport: "width=device-width, initial-scale=1", stylesheets: ["/styles.css"], scripts: ["/app.js"],
            icon: .init(href: "/favicon.svg", type: "image/svg+xml")),
        home: .init(path: "/feed", label: "Back to the feed"),
        banner: { active in SiteHeader(active: active) },
        settings: settings.pageSettings(clock: clock)
    )
    var router = Router(staticFiles: try StaticFiles(directory: publicDirectory), logger: logger)
    router.useErrorPages(of: site)
    router.getImmediately("/healthz") { _ in "ok" }
    router.getImmediately("/") { _ in Response(status: .seeOther, headers: ["Location": "/feed"]) }
    router.addPage(FeedPage(store: feedStore), in: site)
    router.addPage(DayPage(store: dayStore), in: site)
    return router
}

/// Every section id the app's pages know, for checking `--simulate`.
public let allSectionIDs: [SectionID] = FeedPage(store: DemoFeedStore()).catalog.sections.ids + DayPage(store: DemoDayStore()).catalog.sections.ids
