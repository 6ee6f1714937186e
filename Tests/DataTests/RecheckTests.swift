import FeedApp
import HTTPServer
import SectionalTesting
import Testing

@testable import SectionalAccounts

@Suite("A live page's checks of its visitor")
struct RecheckTests {
    /// Accounts on the demo data whose sessions idle out after 600 s of `now`, and a request of alex's, signed in.
    func signedInAlex(now: TestNow) async throws -> (Accounts, Request) {
        let data = try AppData.memory()
        let accounts = Accounts(
            store: data.accounts, hasher: data.hasher, settings: AccountSettings(sessionIdle: .seconds(600)), logger: LogCollector().logger,
            now: now.now)
        let signedIn = try await accounts.signIn(name: "alex", password: "alex-demo-1", from: "127.0.0.1")
        guard case .signedIn(_, let token, _) = signedIn else { throw NotSignedIn(outcome: "\(signedIn)") }
        return (accounts, Request(method: .get, path: "/feed", headers: ["Cookie": "sectional_session=" + token]))
    }

    @Test("count as activity only when the visitor made the request: an open live tab lets its session idle out")
    func rechecksDoNotTouch() async throws {
        let now = TestNow()
        let (accounts, visit) = try await signedInAlex(now: now)

        now.advance(500)
        #expect(try await accounts.visitor(for: visit, renewing: false) != nil)
        now.advance(200)  // 700 s after the last activity, the sign-in
        #expect(try await accounts.visitor(for: visit, renewing: false) == nil, "the rechecks renewed the session")

        guard case .signedIn(_, let second, _) = try await accounts.signIn(name: "alex", password: "alex-demo-1", from: "127.0.0.1") else { return }
        let visit2 = Request(method: .get, path: "/feed", headers: ["Cookie": "sectional_session=" + second])
        now.advance(500)
        #expect(try await accounts.visitor(for: visit2) != nil)
        now.advance(200)  // 200 s after the visitor's own request at 500
        #expect(try await accounts.visitor(for: visit2) != nil, "a visitor's own request is activity")
    }

    @Test("are kept until the session would idle out; a request's read, only until its next renewal is due")
    func rechecksAreKeptLonger() async throws {
        let now = TestNow()
        let (accounts, visit) = try await signedInAlex(now: now)
        now.advance(100)  // past the 60 s after which a request renews the session
        let start = ContinuousClock.now
        let recheck = try #require(try await accounts.visitor(for: visit, renewing: false)?.readAt?.expires)
        // 600 s of idle time, 100 gone, a second short: 499 s, less the time the read took.
        #expect(recheck > start + .seconds(490) && recheck <= .now + .seconds(499))
        _ = try await accounts.visitor(for: visit)  // the visitor's own request: the session is renewed
        let own = try #require(try await accounts.visitor(for: visit)?.readAt?.expires)
        // Renewed at 100 s: it holds until the next renewal is due, 60 s on, a second short.
        #expect(own > start + .seconds(50) && own <= .now + .seconds(59))
    }
}

/// Signing in did not give a session.
struct NotSignedIn: Error {
    let outcome: String
}
