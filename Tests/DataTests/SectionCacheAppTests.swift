import FeedApp
import FeedAppTestSupport
import Foundation
import HTTPServer
import Sectional
import SectionalAccounts
import SectionalServer
import SectionalTesting
import Testing

/// The feed with its section cache and a live hub, in process, on each engine.
private struct CachedApp {
    let data: AppData
    let hub = LiveHub()
    let metrics = ServerMetrics()
    let router: Router

    init(_ data: AppData, settings: AppSettings = AppSettings()) throws {
        self.data = data
        router = try buildRouter(
            publicDirectory: FormHarness.publicDirectory, data: data, settings: settings, metrics: metrics, live: hub,
            logger: LogCollector().logger)
    }

    /// A counter of the cache's, as `/metrics` shows it.
    func cacheCount(_ name: String) -> Int {
        let line = metrics.registry.exposition().split(separator: "\n").first { $0.hasPrefix("sectional_section_cache_\(name) ") }
        return line.flatMap { Int(Double($0.split(separator: " ")[1]) ?? -1) } ?? -1
    }
}

/// Launches the `sqlite3` and `psql` shells for writes made outside: beside no suite that holds many
/// descriptors (`TakingTurns` says why).
extension TakingTurns {
    @Suite("Sections kept between requests", .timeLimit(.minutes(1)))
    struct SectionCacheAppTests {
        @Test("Sections are served as kept; a dismissal shows at once, on every engine", arguments: Engine.allCases)
        func keptUntilWritten(engine: Engine) async throws {
            try await TestDatabase.withData(engine) { data, _ in
                let app = try CachedApp(data)
                let alex = Browser(InProcessClient(app.router))
                try await alex.signIn("alex", "alex-demo-1")
                let target = "/feed?add=checkup&stream=0"
                let first = try await alex.get(target).bodyText
                #expect(app.cacheCount("misses_total") == 4 && app.cacheCount("hits_total") == 0)
                let sentAgain = try await alex.get(target)
                let second = sentAgain.bodyText
                #expect(second == first, "the same page")
                #expect(sentAgain.headers["Server-Timing"] == ConditionalGetTests.kept, "the page as it was sent")
                #expect(app.cacheCount("hits_total") == 0, "sent as kept: no section even looked up")

                let alert = try await data.feed.alerts(of: UserID(1))[0]
                let form = try #require(Browser.form("/feed/alerts/\(alert.id)/dismiss", in: second))
                #expect(try await alex.post("/feed/alerts/\(alert.id)/dismiss", form: form).status == .seeOther)
                let after = try await alex.get(target).bodyText
                #expect(!after.contains(alert.title), "the dismissed alert is gone, not served as kept")
                #expect(app.cacheCount("hits_total") == 3, "the other three, whose data did not change, came from the cache")
                #expect(app.cacheCount("bytes") > 0)
            }
        }

        @Test("Each visitor has their own: sam never sees alex's kept alerts, nor a form signed for alex's session")
        func perVisitor() async throws {
            let app = try CachedApp(try AppData.memory())
            let alex = Browser(InProcessClient(app.router)), sam = Browser(InProcessClient(app.router))
            try await alex.signIn("alex", "alex-demo-1")
            try await sam.signIn("sam", "sam-demo-2")
            let alexAlerts = try await app.data.feed.alerts(of: UserID(1)).map(\.title)
            _ = try await alex.get("/feed?stream=0")
            let samsPage = try await sam.get("/feed?stream=0").bodyText
            for title in alexAlerts where !title.isEmpty { #expect(!samsPage.contains(title), "sam sees \(title)") }
            let alexAgain = Browser(InProcessClient(app.router))
            try await alexAgain.signIn("alex", "alex-demo-1")
            let otherSession = try await alexAgain.get("/feed?stream=0").bodyText
            let tokens = { (page: String) in page.matches(of: /name="token" value="([0-9a-f]+)"/).map { String($0.output.1) } }
            #expect(
                Set(tokens(otherSession)).isDisjoint(with: tokens(try await alex.get("/feed?stream=0").bodyText)), "each session's forms are its own")
        }

        @Test("A correction made in sqlite3 or psql, outside the app, reaches the kept page and an open one", arguments: [Engine.sqlite, .postgres])
        func writtenOutside(engine: Engine) async throws {
            try await TestDatabase.withData(engine) { data, location in
                let app = try CachedApp(data)
                await data.loadLiveVersions(into: app.hub)
                let watch: (@Sendable () -> Void)
                let correct: (String) throws -> Void
                switch location {
                case .sqlite(let path):
                    let watcher = try await app.hub.watchingOtherWriters(of: path, every: .milliseconds(20))
                    (watch, correct) = ({ watcher.stop() }, { try LiveVersionsTests.sqlite3(path, $0) })
                case .postgres(let url):
                    let listener = app.hub.listening(to: url)
                    (watch, correct) = ({ listener.stop() }, { try LiveVersionsTests.psql(url, $0) })
                case .memory:
                    return
                }
                defer { watch() }
                let alex = Browser(InProcessClient(app.router))
                try await alex.signIn("alex", "alex-demo-1")
                #expect(try await alex.get("/feed?stream=0").bodyText.contains("Everyday Checking"))
                let kept = try await alex.get("/feed?stream=0")
                #expect(kept.bodyText.contains("Everyday Checking") && kept.headers["Server-Timing"] == ConditionalGetTests.kept, "served as kept")

                let openPage = try #require(app.hub.subscribe(to: [.init(stored: "accounts:1")], user: "1", session: nil))
                // The listener connects in the background: correct until it hears, so the test waits without a sleep.
                var heard: LiveHub.Change?
                for round in 0..<50 where heard == nil {
                    try correct("UPDATE accounts SET name = 'Main Checking \(round)' WHERE user_id = 1 AND position = 0")
                    heard = await LiveReplicaTests.first(openPage.changes, within: .milliseconds(200))
                }
                #expect(heard?.key == LiveKey(stored: "accounts:1"), "the open page hears it")
                let page = try await alex.get("/feed?stream=0").bodyText
                let balances = try #require(page.firstRange(of: #"<table class="balances">"#).map { page[$0.lowerBound...].prefix(600) })
                #expect(balances.contains("Main Checking") && !balances.contains("Everyday Checking"), "the kept balances gave way to the correction")
                openPage.end()
            }
        }

        @Test("A shared card (the bank's notices) is rendered once for every user, and a new notice reaches them all", arguments: [Engine.sqlite])
        func sharedCard(engine: Engine) async throws {
            try await TestDatabase.withData(engine) { data, location in
                guard case .sqlite(let path) = location else { return }
                let app = try CachedApp(data)
                await data.loadLiveVersions(into: app.hub)
                let watcher = try await app.hub.watchingOtherWriters(of: path, every: .milliseconds(20))
                defer { watcher.stop() }
                let alex = Browser(InProcessClient(app.router)), sam = Browser(InProcessClient(app.router))
                try await alex.signIn("alex", "alex-demo-1")
                try await sam.signIn("sam", "sam-demo-2")
                let misses = app.cacheCount("misses_total")
                let forAlex = try await alex.get("/feed/sections/notices").bodyText
                let forSam = try await sam.get("/feed/sections/notices").bodyText
                #expect(forAlex.contains("Scheduled maintenance") && forAlex == forSam, "one card, the same bytes for both")
                #expect(app.cacheCount("misses_total") == misses + 1, "rendered once, for alex; sam's was kept")

                let openPage = try #require(app.hub.subscribe(to: [LiveKey(stored: "notices:bank")], user: "2", session: nil))
                try LiveVersionsTests.sqlite3(
                    path, "INSERT INTO notices (board, title, body, posted_on) VALUES ('bank', 'Branch hours', 'Open on Saturdays.', '2026-12-04')")
                let heard = await LiveReplicaTests.first(openPage.changes, within: .seconds(5))
                #expect(heard?.key == LiveKey(stored: "notices:bank"), "sam's open page hears the notice posted outside the app")
                let after = app.cacheCount("misses_total")
                #expect(try await alex.get("/feed/sections/notices").bodyText.contains("Branch hours"))
                #expect(try await sam.get("/feed/sections/notices").bodyText.contains("Branch hours"))
                #expect(app.cacheCount("misses_total") == after + 1, "the new version rendered once for both")
                openPage.end()
            }
        }

        @Test("--section-cache 0 turns it off; a section with a simulated fault is never kept, the others are")
        func off() async throws {
            let none = try CachedApp(try AppData.memory(), settings: AppSettings(sectionCacheBytes: 0))
            let alex = Browser(InProcessClient(none.router))
            try await alex.signIn("alex", "alex-demo-1")
            for _ in 0..<2 { _ = try await alex.get("/feed?stream=0") }
            #expect(none.cacheCount("hits_total") == -1, "no cache, no counters")

            let faulty = try CachedApp(try AppData.memory(), settings: AppSettings(simulatedFaults: ["balances": .failsFirst(1)]))
            let sam = Browser(InProcessClient(faulty.router))
            try await sam.signIn("sam", "sam-demo-2")
            #expect(try await sam.get("/feed?stream=0").bodyText.contains("Balances could not be loaded right now."))
            #expect(!(try await sam.get("/feed?stream=0").bodyText.contains("could not be loaded")), "balances loaded again, not kept")
            #expect(faulty.cacheCount("hits_total") == 2, "alerts and credit score were kept")
        }
    }
}
