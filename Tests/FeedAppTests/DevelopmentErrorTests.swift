import FeedApp
import HTTPServer
import SectionalTesting
import Testing

/// In development a failed section says why in its card; in production a
/// visitor reads only the short notice.
@Suite("Errors in development")
struct DevelopmentErrorTests {
    func alertsFailing(in environment: AppEnvironment) async throws -> TestResponse {
        let settings = AppSettings(sectionTimeout: .seconds(30), simulatedFaults: ["alerts": .error], environment: environment)
        return try await AppHarness(settings: settings).get("/feed?stream=0")
    }

    @Test("A section that throws shows its type, its load's time and the error below its fallback")
    func development() async throws {
        let page = try await alertsFailing(in: .development).bodyText
        #expect(page.contains("Alerts could not be loaded right now."))
        let diagnosis = try #require(page.firstMatch(of: /<p class="section-diagnosis">([^<]*)<\/p>/)?.output.1)
        #expect(diagnosis.contains("AlertsSection failed after"), "\(diagnosis)")
        #expect(diagnosis.contains("simulated failure (--simulate)"))
        #expect(page.components(separatedBy: "section-diagnosis").count == 2, "only the failed section has one")
    }

    @Test("In production the card has the fallback only")
    func production() async throws {
        let page = try await alertsFailing(in: .production).bodyText
        #expect(page.contains("Alerts could not be loaded right now."))
        #expect(!page.contains("section-diagnosis"))
        #expect(!page.contains("AlertsSection"))
    }
}
