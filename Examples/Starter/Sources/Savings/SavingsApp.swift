import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSQL
import SectionalSQLite
import SectionalSecurity
import SectionalServer

/// The whole app: its database, its site and its routes.
public enum SavingsApp {
    /// Where a goal's "Put $50 aside" form posts.
    static func depositPath(_ goal: Int) -> String { "/goals/\(goal)/deposit" }

    /// The SQLite database at `path`, created and migrated when it needs to
    /// be, and the key its forms are signed with, kept in it.
    public static func openDatabase(_ path: String) throws -> (pool: ConnectionPool, formKey: [UInt8]) {
        let setup = try SQLiteConnection(path: path)
        try setup.migrate(SavingsSchema.migrations)
        return (try ConnectionPool.sqlite(path), try AccountTables.formKey(in: setup))
    }

    /// Every route of the app, on `pool`: sign-in, the goals page, its form.
    /// - Parameters:
    ///   - live: where the pages' live cards hear of changes.
    ///   - formKey: what forms are signed with, the same on every replica (`openDatabase(_:)` gives it).
    ///   - publicDirectory: the stylesheet's folder.
    ///   - demoUsers: the users the sign-in page names with their passwords; none for a real site.
    ///   - now: the clock the limit on posts counts by (a test's own).
    public static func router(
        pool: ConnectionPool, live: LiveHub, formKey: [UInt8], publicDirectory: String, demoUsers: [DemoUser] = [],
        logger: Logger = .standardError, now: @escaping @Sendable () -> Duration = RateLimit.processTime
    ) throws -> Router {
        let forms = FormGuard(key: formKey)
        let accounts = Accounts(store: SQLAccountStore(pool: pool), hasher: PasswordHasher(), logger: logger)
        var site = Site(
            name: "Savings",
            head: DocumentHead(
                language: "en", viewport: "width=device-width, initial-scale=1", stylesheets: ["/savings.css"],
                icon: .init(href: "/favicon.svg", type: "image/svg+xml")),
            home: .init(path: "/goals", label: "Back to your goals"), banner: { _ in Banner(visitor: nil, forms: forms) })
        site.signIn = accounts
        site.live = live
        site.sectionCache = SectionCache(capacity: 16 << 20)

        var router = Router(staticFiles: try StaticFiles(directory: publicDirectory), logger: logger)
        router.useErrorPages(of: site)
        // Thirty form posts a minute from any one address: a person's clicks pass, a script's flood gets 429.
        router.use(RateLimit(30, per: .seconds(60), client: accounts.clientAddress(of:), now: now))
        router.getSynchronously("/") { _ in Response.seeOther("/goals") }
        SignInRoutes(
            accounts: accounts, formGuard: forms, site: site, live: live, lead: "Put money aside for what matters.", demoUsers: { demoUsers }
        ).register(on: &router)
        let store = SavingsStore(pool: pool)
        router.addPage(GoalsPage(store: store, forms: forms), in: site)
        router.postSignedInForm("/goals/{goal}/deposit", in: site, guardedBy: forms) { (form: SignedInForm<User>) in
            guard let goal = form.request.parameters["goal"].flatMap({ Int($0) }),
                let changes = try await store.deposit(5_000, into: goal, of: form.visitor.user.id)
            else { throw HTTPError(.notFound, "You have no such goal.") }
            for change in changes { live.announce(change) }
            return .seeOther("/goals")
        }
        return router
    }

    /// A user to try the app with (`--demo`), named on the sign-in page.
    public static let demoUser = DemoUser(name: "demo", password: "demo-savings")

    /// Adds `demoUser` and two goals of theirs to an empty database.
    /// - Returns: whether the database has the demo user now (added, or from an earlier start).
    public static func addDemoUser(to pool: ConnectionPool) async throws -> Bool {
        let accounts = SQLAccountStore(pool: pool)
        guard try await accounts.users().isEmpty else { return try await accounts.user(named: demoUser.name) != nil }
        let hash = try PasswordHasher().hash(demoUser.password)
        guard let user = try await accounts.addUser(name: demoUser.name, displayName: "Demo saver", passwordHash: hash) else { return false }
        let store = SavingsStore(pool: pool)
        try await store.addGoal("Emergency fund", targetCents: 300_000, of: user.id)
        try await store.addGoal("Bicycle", targetCents: 90_000, of: user.id)
        return true
    }
}
