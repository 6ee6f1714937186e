import FeedApp
import Foundation
import HTTPServer
import SectionalAccounts
import SectionalSQL
import SectionalServer
import SectionalTesting
import Synchronization
import Testing

/// A feed store on a real database whose reads first run one more
/// statement, chosen per read: a slow one, or one that never ends. It reads
/// as the app's store does (`pool.read`): on SQLite, on the request's thread.
final class QueryingFeedStore: FeedStore {
    let base: any FeedStore
    let pool: ConnectionPool

    init(base: any FeedStore, pool: ConnectionPool, before: [String: String]) {
        self.base = base
        self.pool = pool
        self.before = before
    }
    /// The statement run before each read, by section id.
    let before: [String: String]
    /// As the pool's: a SQLite page's loads run in its request's task, its statements on the request's thread.
    var readsOnCallingThread: Bool { pool.readsOnCallingThread }
    /// When each of those statements ran, on its pool thread.
    let spans = Mutex<[(start: ContinuousClock.Instant, end: ContinuousClock.Instant)]>([])

    private func first(_ section: String) async throws {
        guard let sql = before[section] else { return }
        let span = try await pool.read { db in
            let start = ContinuousClock.now
            _ = try db.query(sql, [])
            return (start: start, end: ContinuousClock.now)
        }
        spans.withLock { $0.append(span) }
    }

    func accounts(of user: UserID) async throws -> [Account] {
        try await first("balances")
        return try await base.accounts(of: user)
    }
    func alerts(of user: UserID) async throws -> [FeedAlert] {
        try await first("alerts")
        return try await base.alerts(of: user)
    }
    func creditScore(of user: UserID) async throws -> CreditScore {
        try await first("credit-score")
        return try await base.creditScore(of: user)
    }
    func recentTransactions(of user: UserID, limit: Int) async throws -> [Transaction] {
        try await first("recent-activity")
        return try await base.recentTransactions(of: user, limit: limit)
    }
    func notices(on board: String, limit: Int) async throws -> [Notice] {
        try await first("notices")
        return try await base.notices(on: board, limit: limit)
    }
    func dismissAlert(_ id: Int, of user: UserID) async throws -> LiveHub.Change? { try await base.dismissAlert(id, of: user) }
    func restoreAlerts(of user: UserID) async throws -> LiveHub.Change? { try await base.restoreAlerts(of: user) }
}

@Suite("Pages on a database", .timeLimit(.minutes(1)))
struct PageOnDatabaseTests {
    static let sections = ["balances", "alerts", "credit-score"]

    private func router(_ data: AppData, store: any FeedStore, sectionTimeout: Duration = .seconds(30)) throws -> Router {
        let data = AppData(
            feed: store, day: data.day, layouts: data.layouts, accounts: data.accounts, users: data.users, formKey: data.formKey, pool: data.pool,
            hasher: data.hasher)
        return try buildRouter(
            publicDirectory: FormHarness.publicDirectory, data: data, settings: AppSettings(sectionTimeout: sectionTimeout),
            logger: LogCollector().logger)
    }

    @Test("Sections' queries run at once: three 200 ms queries make a page of about one, and the server still answers /healthz meanwhile")
    func loadsRunConcurrently() async throws {
        try await TestDatabase.withData(.postgres, connections: 4) { data, _ in
            let pool = try #require(data.pool)
            let store = QueryingFeedStore(
                base: data.feed, pool: pool, before: Dictionary(uniqueKeysWithValues: Self.sections.map { ($0, "SELECT pg_sleep(0.2)") }))
            let router = try router(data, store: store)
            let cookie = "Cookie: " + (try await InProcessClient(router).signIn())
            try await withLiveServer(router) { server in
                let port = server.port
                let clock = ContinuousClock()
                let start = clock.now
                async let page = onOwnThread { () -> (Int, Duration) in
                    let response = try RawHTTPClient(port: port).request("/feed?stream=0", headers: [cookie])
                    return (response.status, start.duration(to: clock.now))
                }
                try await Task.sleep(for: .milliseconds(50))
                let health = try await onOwnThread { () -> (String, Duration) in
                    let response = try RawHTTPClient(port: port).request("/healthz")
                    return (String(decoding: response.body, as: UTF8.self), start.duration(to: clock.now))
                }
                let (status, pageTime) = try await page
                #expect(status == 200)
                #expect(health.0 == "ok")
                #expect(health.1 < pageTime, "/healthz (\(health.1)) waited for the page (\(pageTime))")
                // The three queries overlapped; one after another they alone would take 600 ms.
                let spans = store.spans.withLock { $0 }
                #expect(spans.count == 3)
                // Overlap is the proof; the page's wall time would also measure how busy the machine is.
                #expect(spans.map(\.start).max()! < spans.map(\.end).min()!, "the sections' queries ran one after another (page \(pageTime))")
            }
        }
    }

    @Test(
        "A query that never ends is cut at its section's deadline: the page is a 200 with the fallback, and the pool serves on", arguments: Engine.sql
    )
    func hangingQueryIsCut(engine: Engine) async throws {
        let forever =
            engine == .sqlite
            ? "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT count(*) FROM forever"
            : "SELECT pg_sleep(30)"
        // Three connections: a cut query's caller is answered before PostgreSQL
        // has ended the query, so the previous page's may still hold one while
        // this page's hangs on another; the others' reads need the third.
        try await TestDatabase.withData(engine, connections: 3) { data, _ in
            let pool = try #require(data.pool)
            let store = QueryingFeedStore(base: data.feed, pool: pool, before: ["alerts": forever])
            let client = InProcessClient(try router(data, store: store, sectionTimeout: .milliseconds(300)))
            let cookie = try await client.signIn()
            let clock = ContinuousClock()
            // More hanging pages than connections: were a cut query to keep its connection, the last pages would wait.
            for _ in 0..<4 {
                let start = clock.now
                let response = try await client.get("/feed?stream=0", headers: ["Cookie": cookie])
                let elapsed = start.duration(to: clock.now)
                #expect(response.status == .ok)
                #expect(response.headers["Sectional-Degraded"] == "alerts")
                #expect(response.bodyText.contains("Alerts could not be loaded right now."))
                #expect(response.bodyText.contains("Everyday Checking"))
                #expect(elapsed < .seconds(3), "a page took \(elapsed)")
            }
            let answer = try await pool.run { db in try db.query("SELECT 1 + 1", [])[0].int(0) }
            #expect(answer == 2)
        }
    }
}
