import FeedApp
import HTTPServer
import SectionalTesting
import Testing

@testable import SectionalAccounts

@Suite("A live page's checks of its visitor")
struct RecheckTests {
    @Test("count as activity only when the visitor made the request: an open live tab lets its session idle out")
    func rechecksDoNotTouch() async throws {
        let data = try AppData.memory()
        let now = TestNow()
        let accounts = Accounts(
            store: data.accounts, hasher: data.hasher, settings: AccountSettings(sessionIdle: .seconds(600)), logger: LogCollector().logger,
            now: now.now)
        guard case .signedIn(_, let token, _) = try await accounts.signIn(name: "alex", password: "alex-demo-1", from: "127.0.0.1") else {
            Issue.record("alex could not sign in")
            return
        }
        let visit = Request(method: .get, path: "/feed", headers: ["Cookie": "sectional_session=" + token])

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
}
