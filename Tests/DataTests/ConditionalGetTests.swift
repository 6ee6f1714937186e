import FeedApp
import FeedAppTestSupport
import Foundation
import HTTPServer
import Sectional
import SectionalServer
import SectionalTesting
import Testing

@Suite("Conditional GETs", .timeLimit(.minutes(1)))
struct ConditionalGetTests {
    /// The feed with its section cache and live hub, as the server runs it.
    private func app() throws -> (router: Router, data: AppData) {
        let data = try AppData.memory()
        let router = try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, live: LiveHub(), logger: LogCollector().logger)
        return (router, data)
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
        let (router, _) = try app()
        let alex = Browser(InProcessClient(router)), alexElsewhere = Browser(InProcessClient(router)), sam = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        try await alexElsewhere.signIn("alex", "alex-demo-1")
        try await sam.signIn("sam", "sam-demo-2")
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
