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

    @Test("In development the page loads make dev's reload script and the server serves it; in production neither")
    func reloadScript() async throws {
        let development = try await AppHarness(settings: AppSettings(environment: .development))
        let script = try await development.get("/_dev/reload.js")
        #if DEBUG
            #expect(try await development.get("/feed?stream=0").bodyText.contains(#"src="/_dev/reload.js""#))
            #expect(script.status == .ok && script.bodyText.contains("location.reload()"))
        #else
            // A release build has no reload script, whatever the environment says (make dev builds for debug).
            #expect(!(try await development.get("/feed?stream=0").bodyText.contains("/_dev/")))
            #expect(script.status == .notFound)
        #endif
        let production = try await AppHarness()
        #expect(!(try await production.get("/feed?stream=0").bodyText.contains("/_dev/")))
        #expect(try await production.get("/_dev/reload.js").status == .notFound)
    }
}
