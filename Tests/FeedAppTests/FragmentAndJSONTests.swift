import Foundation
import HTTPServer
import Sectional
import SectionalTesting
import Testing

@testable import FeedApp

@Suite("Fragments and the JSON section list")
struct FragmentAndJSONTests {
    let app: AppHarness
    init() async throws { app = try await AppHarness() }

    @Test(
        "A fragment is one section card alone, for partial refresh",
        arguments: ["balances", "alerts", "credit-score", "recent-activity", "notices", "checkup"])
    func fragment(id: String) async throws {
        let response = try await app.get("/feed/sections/\(id)")
        #expect(response.status == .ok)
        #expect(response.sectionIDs == [SectionID(id)])
        #expect(!response.bodyText.contains("<html"))
        #expect(response.bodyText.hasPrefix("<section"))
        let page = try await app.get("/feed?add=\(id)")
        #expect(page.bodyText.contains(response.bodyText))
    }

    @Test("A fragment's remove link leads back to the page without it")
    func fragmentLinks() async throws {
        let response = try await app.get("/feed/sections/recent-activity?sections=alerts")
        #expect(response.actionLinks("remove") == ["/feed?sections=alerts"])
    }

    @Test("GET /api/feed/sections lists the composed sections and the ones that could be added")
    func description() async throws {
        let response = try await app.get("/api/feed/sections?sections=credit-score,balances")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "application/json")
        let description = try JSONDecoder().decode(PageDescription.self, from: Data(response.bodyBytes))
        #expect(description.page == "/feed?sections=credit-score,balances")
        #expect(description.sections.map(\.id) == ["credit-score", "balances"])
        #expect(description.sections.map(\.position) == [1, 2])
        #expect(description.sections.map(\.title) == ["Credit score", "Balances"])
        #expect(description.sections[0].fragment == "/feed/sections/credit-score?sections=credit-score,balances")
        #expect(description.sections[0].remove == "/feed?sections=balances")
        #expect(description.available.map(\.id) == ["alerts", "recent-activity", "notices", "checkup"])
        #expect(description.available[0].add == "/feed?sections=credit-score,balances,alerts")
    }

    @Test("The JSON follows the same rules as the page")
    func jsonMatchesPage() async throws {
        for query in ["", "?remove=alerts", "?add=checkup", "?sections=checkup,alerts&add=balances"] {
            let page = try await app.get("/feed" + query)
            let json = try await app.get("/api/feed/sections" + query)
            let description = try JSONDecoder().decode(PageDescription.self, from: Data(json.bodyBytes))
            #expect(description.sections.map(\.id) == page.sectionIDs)
        }
    }

    @Test("?pretty indents the JSON for people; without it, it is one line")
    func pretty() async throws {
        let compact = try await app.get("/api/feed/sections").bodyText
        let pretty = try await app.get("/api/feed/sections?pretty").bodyText
        #expect(!compact.contains("\n"))
        #expect(pretty.contains("\n  \""))
        let a = try JSONDecoder().decode(PageDescription.self, from: Data(compact.utf8))
        let b = try JSONDecoder().decode(PageDescription.self, from: Data(pretty.utf8))
        #expect(a == b)
    }

    @Test("Every fragment URL the JSON names serves that section")
    func fragmentsFromJSON() async throws {
        let json = try await app.get("/api/day/sections?date=2026-11-03&remove=sleep")
        let description = try JSONDecoder().decode(PageDescription.self, from: Data(json.bodyBytes))
        #expect(description.page == "/day?date=2026-11-03&sections=calendar,summary,workout")
        for section in description.sections {
            let fragment = try await app.get(section.fragment)
            #expect(fragment.status == .ok)
            #expect(fragment.sectionIDs == [section.id])
        }
    }

    @Test("/healthz answers ok, / leads to the feed, static files are served")
    func fixedRoutes() async throws {
        let health = try await app.get("/healthz")
        #expect(health.status == .ok)
        #expect(health.bodyText == "ok")
        let root = try await app.get("/")
        #expect(root.status == .seeOther)
        #expect(root.headers["Location"] == "/feed")
        for (path, type) in [("/styles.css", "text/css"), ("/_sectional/sectional.js", "text/javascript"), ("/favicon.svg", "image/svg+xml")] {
            let file = try await app.get(path)
            #expect(file.status == .ok)
            #expect(file.headers["Content-Type"]?.hasPrefix(type) == true)
        }
    }

    @Test("HTML answers keep personal pages out of shared caches and allow only the site's own script")
    func securityHeaders() async throws {
        let response = try await app.get("/feed")
        #expect(response.headers["Cache-Control"] == "private, no-store")
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        let policy = try #require(response.headers["Content-Security-Policy"])
        #expect(policy.contains("default-src 'self'"))
        #expect(policy.contains("frame-ancestors 'none'"))
        #expect(!response.bodyText.contains("<script>"))
    }
}
