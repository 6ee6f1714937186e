import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer

#if canImport(Glibc)
    import Glibc
#endif

/// Builds the router that production serves and tests call: every page,
/// endpoint, form and static file of the app, on `data`.
public func buildRouter(
    publicDirectory: String,
    data: AppData,
    settings: AppSettings = AppSettings(),
    clock: any Clock<Duration> = DeadlineClock(),
    now: @escaping @Sendable () -> Int = unixNow,
    readiness: Readiness? = nil,
    metrics: ServerMetrics? = nil,
    live: LiveHub? = nil,
    logger: Logger = .standardError
) throws(ServerError) -> Router {
    var pageSettings = settings.pageSettings(clock: clock)
    if let metrics {
        pageSettings.onLoadReport = metrics.observe
        data.registerMetrics(in: metrics.registry)
    }
    var head = DocumentHead(
        language: "en", viewport: "width=device-width, initial-scale=1", stylesheets: ["/styles.css"],
        icon: .init(href: "/favicon.svg", type: "image/svg+xml"))
    #if DEBUG
        if settings.environment == .development { head.scripts.append(DevelopmentReload.scriptPath) }
    #endif
    var site = Site(
        name: "Sectional",
        head: head,
        home: .init(path: "/feed", label: "Back to the feed"),
        banner: { active in SiteHeader(active: active) },
        settings: pageSettings
    )
    site.live = live
    site.sectionCache = settings.makeSectionCache()
    if let metrics, let cache = site.sectionCache { metrics.registerSectionCache(cache) }
    if let metrics, let live {
        metrics.registry.gauge("sectional_live_streams", "Live page streams open now.") { [([], Double(live.openStreams))] }
    }
    site.notices = FeedWrites.notices
    let accounts = Accounts(store: data.accounts, hasher: data.hasher, settings: settings.accounts, logger: logger, now: now)
    site.signIn = accounts
    var router = Router(staticFiles: try StaticFiles(directory: publicDirectory), logger: logger)
    router.showsErrorCauses = settings.environment == .development
    router.useErrorPages(of: site)
    if settings.postsPerMinute > 0 {
        router.use(RateLimit(settings.postsPerMinute, per: .seconds(60), client: accounts.clientAddress(of:)))
    }
    #if DEBUG
        if settings.environment == .development { DevelopmentReload.register(on: &router) }
    #endif
    router.getSynchronously("/healthz") { _ in "ok" }
    let readiness = readiness ?? Readiness(pool: data.pool)
    router.get("/readyz") { _ in await readiness.response() }
    router.getSynchronously("/") { _ in Response(status: .seeOther, headers: ["Location": "/feed"]) }
    let formGuard = FormGuard(key: data.formKey)
    SignInRoutes(
        accounts: accounts, formGuard: formGuard, site: site, live: live, lead: "Your balances, alerts and credit score on one page.",
        demoUsers: { [pool = data.pool] in try await Seeder.demoUsers(in: pool) }
    ).register(on: &router)
    let feed = FeedPage(store: data.feed, layouts: data.layouts, formGuard: formGuard, logger: logger)
    router.addPage(feed, in: site)
    FeedWrites(
        store: data.feed, layouts: data.layouts, site: site, formGuard: formGuard, sections: feed.catalog.sections,
        live: live
    )
    .register(on: &router)
    router.addPage(DayPage(store: data.day, formGuard: formGuard), in: site)
    return router
}

/// The time now, in Unix seconds.
public let unixNow: @Sendable () -> Int = { Int(time(nil)) }

/// Every section id the app's pages know, for checking `--simulate`: the feed's catalog, then the day page's.
public let allSectionIDs: [SectionID] = [
    BalancesSection.id, AlertsSection.id, CreditScoreSection.id, RecentActivitySection.id, CheckupSection.id,
    CalendarSection.id, SummarySection.id, SleepSection.id, WorkoutSection.id,
]
