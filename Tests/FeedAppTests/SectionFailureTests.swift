import SectionalServer
import SectionalTesting
import Testing

@testable import FeedApp

/// A store whose credit bureau is down.
struct BrokenCreditStore: FeedStore {
    struct BureauDown: Error {}
    let demo = SeedFeedStore()
    func accounts(of user: UserID) async throws -> [Account] { try await demo.accounts(of: user) }
    func alerts(of user: UserID) async throws -> [FeedAlert] { try await demo.alerts(of: user) }
    func creditScore(of user: UserID) async throws -> CreditScore { throw BureauDown() }
    func recentTransactions(of user: UserID, limit: Int) async throws -> [Transaction] {
        try await demo.recentTransactions(of: user, limit: limit)
    }
    func dismissAlert(_ id: Int, of user: UserID) async throws -> LiveHub.Change? { try await demo.dismissAlert(id, of: user) }
    func restoreAlerts(of user: UserID) async throws -> LiveHub.Change? { try await demo.restoreAlerts(of: user) }
}

@Suite("A failing section does not fail the page")
struct SectionFailureTests {
    @Test("The failed section shows its fallback; its siblings render; the page is a 200; the log names the section")
    func fallback() async throws {
        let app = try await AppHarness(feedStore: BrokenCreditStore())
        let response = try await app.get("/feed")
        #expect(response.status == .ok)
        #expect(response.sectionIDs == ["balances", "alerts", "credit-score"])
        #expect(response.bodyText.contains("Credit score could not be loaded right now."))
        #expect(response.bodyText.contains("Everyday Checking"))
        #expect(response.bodyText.contains("Payment due tomorrow"))
        #expect(app.logLines.contains { $0.contains("credit-score") && $0.contains("BureauDown") })

        let fragment = try await app.get("/feed/sections/credit-score")
        #expect(fragment.status == .ok)
        #expect(fragment.bodyText.contains("could not be loaded"))
    }
}
