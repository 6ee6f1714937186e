import FeedAppTestSupport
import Foundation
import HTTPServer
import Sectional
import SectionalAccounts
import SectionalPostgres
import SectionalSQL
import SectionalSQLite
import SectionalServer
import SectionalTesting
import Testing

@testable import FeedApp

/// Random writes, through the app's forms and from outside it, between reads
/// of pages and fragments served from the section cache: after each write is
/// acknowledged, no later read shows the state before it. A write from
/// outside reaches the server by a notification (PostgreSQL) or the file's
/// watch (SQLite): the reads wait for it, and the wait is bounded.
@Suite("A kept section is never stale", .timeLimit(.minutes(2)))
struct NeverStaleTests {
    /// What the feed must show: the model the reads are checked against.
    struct Model {
        var accountName = "Everyday Checking"
        var alerts: [Int: (title: String, dismissed: Bool)]
        var newestMerchant: String?
    }

    /// Where outside writes come from: a connection of their own, as `sqlite3` or `psql` would be.
    struct Outside: Sendable {
        let location: DatabaseLocation

        /// Runs `sql` on a new connection and returns the version its triggers gave `key`.
        func write(_ sql: String, raising key: LiveKey) async throws -> Int {
            try await onOwnThread { [location] in
                let db: any SQLConnection
                switch location {
                case .sqlite(let path): db = try SQLiteConnection(path: path)
                case .postgres(let url): db = try PostgresConnection(url: url)
                case .memory: throw SQLError(code: "memory", message: "no other connection reaches a database in memory")
                }
                try db.execute(sql)
                return try db.query("SELECT version FROM live_versions WHERE key = $1", [.text(key.description)]).first?.int(0) ?? 0
            }
        }
    }

    @Test("Random writes in the app and from outside, random reads: never the old state", arguments: [Engine.sqlite, .postgres])
    func randomWritesAndReads(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, location in
            let hub = LiveHub()
            await data.loadLiveVersions(into: hub)
            let router = try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, live: hub, logger: LogCollector().logger)
            let stop: @Sendable () -> Void
            switch location {
            case .sqlite(let path):
                let watcher = try await hub.watchingOtherWriters(of: path, every: .milliseconds(20))
                stop = { watcher.stop() }
            case .postgres(let url):
                let listener = hub.listening(to: url)
                stop = { listener.stop() }
                try await Self.waitUntilListening(hub, Outside(location: location))
            case .memory:
                return
            }
            defer { stop() }

            let alex = Browser(InProcessClient(router))
            try await alex.signIn("alex", "alex-demo-1")
            let alerts = try await data.feed.alerts(of: UserID(1))
            var model = Model(alerts: Dictionary(uniqueKeysWithValues: alerts.map { ($0.id, ($0.title, $0.isDismissed)) }))
            let outside = Outside(location: location)
            var random = DemoRandom(seed: 20261205)
            var longestWait = Duration.zero
            // Read as a browser reads what it keeps: asking with the tag it has, and showing its copy on a 304.
            let kept = KeptCopies(alex)
            var page = try await kept.read("/feed?add=recent-activity&stream=0")
            for step in 0..<60 {
                switch random.next(in: 0...5) {
                case 0:  // dismiss through the app's form
                    let id = try #require(model.alerts.keys.sorted().randomElement(using: &random))
                    if let form = Browser.form("/feed/alerts/\(id)/dismiss", in: page) {
                        #expect(try await alex.post("/feed/alerts/\(id)/dismiss", form: form).status == .seeOther)
                        model.alerts[id]?.dismissed = true
                    }
                case 1:  // restore through the app's form
                    if let form = Browser.form("/feed/alerts/restore", in: page) {
                        #expect(try await alex.post("/feed/alerts/restore", form: form).status == .seeOther)
                        for id in model.alerts.keys { model.alerts[id]?.dismissed = false }
                    }
                case 2:  // rename an account from outside
                    let name = "Checking \(step)"
                    let version = try await outside.write(
                        "UPDATE accounts SET name = '\(name)' WHERE user_id = 1 AND position = 0", raising: "accounts:1")
                    longestWait = max(longestWait, try await Self.waitFor(version, of: "accounts:1", in: hub))
                    model.accountName = name
                case 3:  // retitle an alert from outside
                    let id = try #require(model.alerts.keys.sorted().randomElement(using: &random))
                    let title = "Notice \(step)"
                    let version = try await outside.write("UPDATE alerts SET title = '\(title)' WHERE id = \(id)", raising: "alerts:1")
                    longestWait = max(longestWait, try await Self.waitFor(version, of: "alerts:1", in: hub))
                    model.alerts[id]?.title = title
                case 4:  // a new transaction from outside, the newest of all
                    let merchant = "Market \(step)"
                    let day = "2099-0\(1 + step / 28)-" + (step % 28 < 9 ? "0" : "") + String(1 + step % 28)  // later with every step
                    let version = try await outside.write(
                        "INSERT INTO transactions (user_id, day, merchant, amount_cents) VALUES (1, '\(day)', '\(merchant)', -100)",
                        raising: "transactions:1")
                    longestWait = max(longestWait, try await Self.waitFor(version, of: "transactions:1", in: hub))
                    model.newestMerchant = merchant
                default:  // a fragment alone
                    let id = ["balances", "alerts", "recent-activity"].randomElement(using: &random)!
                    Self.check(try await kept.read("/feed/sections/\(id)"), against: model, step: step)
                }
                page = try await kept.read("/feed?add=recent-activity&stream=0")
                Self.check(page, against: model, step: step)
            }
            #expect(kept.confirmed > 0, "some reads were answered 304: the checker read through the kept answers")
            // What a notification or the watch took to reach the server, at most: reads waited no longer.
            #expect(longestWait < .seconds(3), "an outside write took \(longestWait) to be seen")
        }
    }

    /// Every part of `model` the HTML shows is as the model says.
    static func check(_ html: String, against model: Model, step: Int) {
        if let table = html.firstRange(of: #"<table class="balances">"#) {
            let balances = html[table.lowerBound...].prefix(400)
            #expect(balances.contains(model.accountName), "step \(step): the balances show \(model.accountName)")
        }
        if html.contains(#"id="section-alerts""#) {
            for (_, alert) in model.alerts where !alert.title.isEmpty {
                #expect(html.contains(alert.title) != alert.dismissed, "step \(step): \(alert.title), dismissed: \(alert.dismissed)")
            }
        }
        if let merchant = model.newestMerchant, html.contains(#"id="section-recent-activity""#) {
            #expect(html.contains(merchant), "step \(step): the newest transaction, \(merchant), is listed")
        }
    }

    /// Waits until `hub` knows `key` at `version` at least: the outside write has reached the server.
    /// - Returns: how long that took.
    static func waitFor(_ version: Int, of key: LiveKey, in hub: LiveHub, within limit: Duration = .seconds(10)) async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        while hub.version(of: key) < version {
            guard start.duration(to: clock.now) < limit else { throw Unseen(key: key, version: version) }
            try await Task.sleep(for: .milliseconds(5))
        }
        return start.duration(to: clock.now)
    }

    /// The listener connects in the background: a harmless write, until it is heard.
    static func waitUntilListening(_ hub: LiveHub, _ outside: Outside) async throws {
        for _ in 0..<100 {
            let version = try await outside.write("UPDATE credit_scores SET score = score WHERE user_id = 2", raising: "credit-score:2")
            if (try? await waitFor(version, of: "credit-score:2", in: hub, within: .milliseconds(200))) != nil { return }
        }
        throw Unseen(key: "credit-score:2", version: 0)
    }

    struct Unseen: Error, CustomStringConvertible {
        var key: LiveKey
        var version: Int
        var description: String { "\(key) never reached version \(version) on the server" }
    }
}

/// What a browser keeps of pages that carry an `ETag`: each read asks with
/// the tag of its copy, and a `304` shows that copy.
private final class KeptCopies: @unchecked Sendable {
    private let browser: Browser
    private var copies: [String: (tag: String, body: String)] = [:]
    /// Reads answered `304`.
    private(set) var confirmed = 0

    init(_ browser: Browser) { self.browser = browser }

    func read(_ target: String) async throws -> String {
        let headers: HTTPHeaders = copies[target].map { ["If-None-Match": $0.tag] } ?? [:]
        let response = try await browser.get(target, headers: headers)
        if response.status == .notModified, let copy = copies[target] {
            confirmed += 1
            return copy.body
        }
        #expect(response.status == .ok)
        if let tag = response.headers["ETag"] { copies[target] = (tag, response.bodyText) }
        return response.bodyText
    }
}
