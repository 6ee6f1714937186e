import FeedApp
import FeedAppTestSupport
import Foundation
import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer
import SectionalTesting
import Testing

@Suite("Conditional GETs", .timeLimit(.minutes(1)))
struct ConditionalGetTests {
    /// The timing of an answer sent again as it was kept.
    static let kept = "kept;dur=0.000"

    /// The feed with its section cache and live hub, as the server runs it.
    private func app() throws -> (router: Router, data: AppData) {
        let data = try AppData.memory()
        let router = try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, live: LiveHub(), logger: LogCollector().logger)
        return (router, data)
    }

    /// alex signed in twice, and sam, on one app.
    private func threeVisitors() async throws -> (Router, alex: Browser, alexElsewhere: Browser, sam: Browser) {
        let (router, _) = try app()
        let alex = Browser(InProcessClient(router)), alexElsewhere = Browser(InProcessClient(router)), sam = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        try await alexElsewhere.signIn("alex", "alex-demo-1")
        try await sam.signIn("sam", "sam-demo-2")
        return (router, alex, alexElsewhere, sam)
    }

    @Test(
        "A page, a fragment and the description carry their content's ETag; asked again with it, a 304 and no body, until a write",
        arguments: ["/feed?stream=0", "/feed/sections/alerts", "/api/feed/sections"])
    func notModifiedUntilWritten(target: String) async throws {
        let (router, data) = try app()
        let alex = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        let first = try await alex.get(target)
        #expect(first.status == .ok)
        let tag = try #require(first.headers["ETag"])
        #expect(first.headers["Cache-Control"] == "private, no-cache")
        #expect(first.headers["Vary"]?.contains("Cookie") == true)

        let again = try await alex.get(target, headers: ["If-None-Match": tag])
        #expect(again.status == .notModified)
        #expect(again.bodyBytes.isEmpty)
        #expect(again.headers["ETag"] == tag)
        #expect(try await alex.get(target, headers: ["If-None-Match": "\"someone-else\", W/" + tag]).status == .notModified)
        #expect(try await alex.get(target, headers: ["If-None-Match": "\"0000\""]).status == .ok, "another tag: the page itself")

        // Dismissing an alert changes the alerts and the page; the description's statuses stay as they were.
        let page = try await alex.get("/feed?stream=0").bodyText
        let alert = try await data.feed.alerts(of: UserID(1))[0]
        let form = try #require(Browser.form("/feed/alerts/\(alert.id)/dismiss", in: page))
        #expect(try await alex.post("/feed/alerts/\(alert.id)/dismiss", form: form).status == .seeOther)
        let after = try await alex.get(target, headers: ["If-None-Match": tag])
        if target.hasPrefix("/api/") {
            #expect(after.status == .notModified, "the composition and its statuses did not change")
        } else {
            #expect(after.status == .ok, "the old tag no longer names what the page shows")
            #expect(after.headers["ETag"] != tag && !after.bodyText.contains(alert.title))
        }
    }

    @Test("Another session, or another user, never gets a 304 for alex's page")
    func perVisitor() async throws {
        let (router, alex, alexElsewhere, sam) = try await threeVisitors()
        let tag = try #require(try await alex.get("/feed?stream=0").headers["ETag"])
        #expect(
            try await alexElsewhere.get("/feed?stream=0", headers: ["If-None-Match": tag]).status == .ok, "its forms are signed for another session")
        #expect(try await sam.get("/feed?stream=0", headers: ["If-None-Match": tag]).status == .ok)
        let anonymous = try await InProcessClient(router).get("/feed?stream=0", headers: ["If-None-Match": tag])
        #expect(anonymous.status == .seeOther, "nobody signed in is sent to sign in, not told 304")
    }

    @Test("A streamed page whose every card is kept goes whole, with its ETag; one still loading streams, without")
    func streamedOnceWarm() async throws {
        let (router, _) = try app()
        let alex = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        let cold = try await alex.get("/feed")
        #expect(cold.headers["ETag"] == nil && cold.headers["Cache-Control"] == "private, no-store")
        let warm = try await alex.get("/feed")
        let tag = try #require(warm.headers["ETag"])
        #expect(warm.bodyText.withoutStreamPlaceholders == cold.bodyText.withoutStreamPlaceholders, "the same page")
        #expect(try await alex.get("/feed", headers: ["If-None-Match": tag]).status == .notModified)
    }

    @Test(
        "A tag still standing is answered 304 with nothing read; a page whose cards are kept is made again reading no database",
        arguments: ["/feed?stream=0", "/feed", "/feed/sections/alerts", "/api/feed/sections", "/feed?sections=recent-activity,alerts&stream=0"])
    func notModifiedWithoutReading(target: String) async throws {
        let (router, data) = try app()
        let pool = try #require(data.pool)
        let alex = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        _ = try await alex.get("/feed?stream=0")  // the cards of the default composition kept, the description's too
        _ = try await alex.get(target)  // a streamed page goes whole, with its tag, once its cards are kept
        let tag = try #require(try await alex.get(target).headers["ETag"])
        let reads = pool.statistics.reads
        let unchanged = try await alex.get(target, headers: ["If-None-Match": tag])
        #expect(unchanged.status == .notModified && unchanged.headers["ETag"] == tag)
        #expect(unchanged.headers["Cache-Control"] == "private, no-cache" && unchanged.headers["Vary"]?.contains("Cookie") == true)
        #expect(pool.statistics.reads == reads, "neither the session, the layout nor a section was read")
        #expect(try await alex.get(target, headers: ["If-None-Match": "\"0000\""]).status == .ok, "another tag: the page itself")
        #expect(pool.statistics.reads == reads, "made again from its kept cards, visitor and layout: still nothing read")
    }

    @Test(
        "Asked again without its tag, an answer sent whole is sent as it was, with nothing read; after a write, made again",
        arguments: ["/feed?stream=0", "/feed", "/feed/sections/alerts", "/api/feed/sections"])
    func sentAgainUntilWritten(target: String) async throws {
        let (router, data) = try app()
        let pool = try #require(data.pool)
        let alex = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        if target == "/feed" { _ = try await alex.get(target) }  // its cards kept: from now on it goes whole
        let first = try await alex.get(target)
        #expect(first.status == .ok && first.headers["Server-Timing"] != Self.kept)
        let reads = pool.statistics.reads
        let again = try await alex.get(target)
        #expect(again.status == .ok && again.headers["Server-Timing"] == Self.kept)
        #expect(again.bodyBytes == first.bodyBytes && again.headers["ETag"] == first.headers["ETag"])
        #expect(again.headers["Cache-Control"] == "private, no-cache" && again.headers["Vary"]?.contains("Cookie") == true)
        #expect(pool.statistics.reads == reads, "nothing read")

        let alert = try await data.feed.alerts(of: UserID(1))[0]
        let page = try await alex.get("/feed?stream=0").bodyText
        let form = try #require(Browser.form("/feed/alerts/\(alert.id)/dismiss", in: page))
        #expect(try await alex.post("/feed/alerts/\(alert.id)/dismiss", form: form).status == .seeOther)
        let after = try await alex.get(target)
        #expect(after.status == .ok && after.headers["Server-Timing"] != Self.kept)
        if target.hasPrefix("/api/") {
            #expect(after.bodyBytes == first.bodyBytes, "the composition and its statuses did not change")
        } else {
            #expect(!after.bodyText.contains(alert.title), "the dismissed alert is gone")
        }
    }

    @Test("An answer kept for alex goes to nobody else: not another session of alex's, not sam, not someone signed out")
    func sentAgainOnlyToItsSession() async throws {
        let (router, alex, alexElsewhere, sam) = try await threeVisitors()
        _ = try await alex.get("/feed?stream=0")
        let kept = try await alex.get("/feed?stream=0")
        #expect(kept.headers["Server-Timing"] == Self.kept)
        let elsewhere = try await alexElsewhere.get("/feed?stream=0")
        #expect(elsewhere.headers["Server-Timing"] != Self.kept && elsewhere.bodyBytes != kept.bodyBytes, "its forms are signed for another session")
        let sams = try await sam.get("/feed?stream=0")
        #expect(sams.headers["Server-Timing"] != Self.kept && sams.bodyBytes != kept.bodyBytes)
        #expect(try await InProcessClient(router).get("/feed?stream=0").status == .seeOther)
    }

    @Test("A tag kept for a session stops standing when the session ends: after a sign-out, here or elsewhere, the old cookie gets 303")
    func notModifiedEndsWithTheSession() async throws {
        let hub = LiveHub()
        let data = try AppData.memory()
        let router = try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, live: hub, logger: LogCollector().logger)
        let pool = try #require(data.pool)
        for endedElsewhere in [false, true] {
            let alex = Browser(InProcessClient(router))
            try await alex.signIn("alex", "alex-demo-1")
            let cookie = try #require(alex.cookie)
            let page = try await alex.get("/feed?stream=0")
            let tag = try #require(page.headers["ETag"])
            let asked: HTTPHeaders = ["Cookie": cookie, "If-None-Match": tag]
            #expect(try await InProcessClient(router).get("/feed?stream=0", headers: asked).status == .notModified)
            #expect(try await InProcessClient(router).get("/feed?stream=0", headers: ["Cookie": cookie]).headers["Server-Timing"] == Self.kept)
            if endedElsewhere {
                // Another replica, a batch job: the session goes in SQL, and its change reaches this hub as a notification would.
                let token = String(cookie.drop { $0 != "=" }.dropFirst())
                try await pool.write { db in try db.execute("DELETE FROM sessions WHERE token_hash = $1", [.text(SecretToken.hash(token))]) }
                try await pool.write { db in try LiveVersions.load(into: hub, from: db) }
            } else {
                let form = try #require(Browser.form("/signout", in: page.bodyText))
                #expect(try await alex.post("/signout", form: form).status == .seeOther)
            }
            let after = try await InProcessClient(router).get("/feed?stream=0", headers: asked)
            #expect(after.status == .seeOther, "ended \(endedElsewhere ? "elsewhere" : "here"): sent to sign in, never told 304")
            let plain = try await InProcessClient(router).get("/feed?stream=0", headers: ["Cookie": cookie])
            #expect(plain.status == .seeOther, "ended \(endedElsewhere ? "elsewhere" : "here"): never sent the page kept for it")
        }
    }

    @Test("Saving a layout, or any card's data changing, makes the page again: the old tag is not confirmed")
    func notModifiedEndsWithTheLayout() async throws {
        let (router, _) = try app()
        let alex = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        let page = try await alex.get("/feed?stream=0")
        let tag = try #require(page.headers["ETag"])
        let form = try #require(Browser.form("/feed/layout", in: try await alex.get("/feed?sections=alerts&stream=0").bodyText))
        #expect(try await alex.post("/feed/layout", form: form).status == .seeOther)
        let after = try await alex.get("/feed?stream=0", headers: ["If-None-Match": tag])
        #expect(after.status == .ok && after.bodyText.contains("Showing your saved layout."))
    }

    @Test("Signing out clears what the browser kept")
    func signOutClearsTheCache() async throws {
        let (router, _) = try app()
        let alex = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        let page = try await alex.get("/feed?stream=0").bodyText
        let form = try #require(Browser.form("/signout", in: page))
        let signedOut = try await alex.post("/signout", form: form)
        #expect(signedOut.status == .seeOther)
        #expect(signedOut.headers["Clear-Site-Data"] == "\"cache\"")
    }
}
