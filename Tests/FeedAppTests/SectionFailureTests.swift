import SectionalAccounts
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
    func notices(on board: String, limit: Int) async throws -> [Notice] { try await demo.notices(on: board, limit: limit) }
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

    @Test("A section that fell back offers Try again: a link to the page as it is, which the page script follows for that card alone")
    func tryAgain() async throws {
        let app = try await AppHarness(feedStore: BrokenCreditStore())
        let page = try await app.get("/feed?sections=credit-score,balances").bodyText
        #expect(
            page.contains(
                #"<p class="section-retry"><a href="/feed?sections=credit-score,balances" data-section-action="retry" data-section="credit-score">Try again</a></p>"#
            ))
        #expect(page.components(separatedBy: "Try again").count == 2, "only the card that fell back offers it")
    }

    @Test("A fault that passes: the first load fails and offers Try again, the next brings the section back")
    func faultThatPasses() async throws {
        let app = try await AppHarness(settings: AppSettings(simulatedFaults: ["recent-activity": .failsFirst(1)]))
        let first = try await app.get("/feed/sections/recent-activity").bodyText
        #expect(first.contains("Recent activity could not be loaded right now."))
        #expect(first.contains(#"data-section-action="retry""#))
        let again = try await app.get("/feed/sections/recent-activity").bodyText
        #expect(again.contains("Blue Bottle Coffee"))
        #expect(!again.contains("Try again"))
    }
}
