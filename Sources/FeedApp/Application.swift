import HTTPServer
import Sectional
import SectionalSecurity
import SectionalServer

/// Builds the router that production serves and tests call: every page,
/// endpoint, form and static file of the app, on `data` (the seed data in
/// memory unless given).
public func buildRouter(
    publicDirectory: String,
    data: AppData = .memory(),
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
    // Until sign-in exists, everyone is the first user (`feed-server` refuses to start with none).
    let user = data.defaultUser ?? UserID(0)
    let formGuard = FormGuard(key: data.formKey)
    let feed = FeedPage(store: data.feed, layouts: data.layouts, user: user, formGuard: formGuard, logger: logger)
    router.addPage(feed, in: site)
    FeedWrites(store: data.feed, layouts: data.layouts, user: user, formGuard: formGuard, sections: feed.catalog.sections).register(on: &router)
    router.addPage(DayPage(store: data.day, user: user), in: site)
    return router
}

/// Every section id the app's pages know, for checking `--simulate`.
public let allSectionIDs: [SectionID] = {
    let data = AppData.memory()
    let feed = FeedPage(store: data.feed, layouts: data.layouts, user: UserID(1), formGuard: FormGuard(key: data.formKey))
    return feed.catalog.sections.ids + DayPage(store: data.day, user: UserID(1)).catalog.sections.ids
}()
