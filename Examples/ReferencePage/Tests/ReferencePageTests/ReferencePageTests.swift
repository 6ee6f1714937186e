import Foundation
import HTTPServer
import ReferencePage
import SectionalTesting
import Testing

/// The reference page, served by Sectional's public API from outside the
/// package, against the spec's own expected HTML.
@Suite("The reference page")
struct ReferencePageTests {
    let router = ReferenceApp.router(store: InMemoryReferenceStore(try! ReferenceData.bundled()), logger: LogCollector().logger)

    /// HTML with the whitespace between tags dropped and the doctype in one case, as the spec allows.
    private func normalized(_ html: String) -> String {
        html.replacingOccurrences(of: #">\s+<"#, with: "><", options: .regularExpression)
            .replacingOccurrences(of: "<!DOCTYPE html>", with: "<!doctype html>")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private var expected: String {
        get throws {
            let url = try #require(Bundle.module.url(forResource: "reference", withExtension: "html"))
            return try String(contentsOf: url, encoding: .utf8)
        }
    }

    @Test("GET /feed is the reference HTML, in process and over a socket", arguments: TestMode.allCases)
    func matchesTheReference(mode: TestMode) async throws {
        let expected = try normalized(self.expected)
        try await withTestClient(router, mode) { client in
            let response = try await client.get("/feed")
            #expect(response.status == .ok)
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
            #expect(response.headers["Server-Timing"] == nil, "the spec's headers, no more timing than the C renderer sends")
            #expect(normalized(response.bodyText) == expected)
        }
    }

    @Test("Every text value is escaped: names, alerts, the data's quotes and brackets")
    func escaping() async throws {
        let page = try await InProcessClient(router).get("/feed").bodyText
        #expect(page.contains("Travel Card &lt;Visa&gt;"))
        #expect(page.contains("Brokerage &quot;Core&quot;"))
        #expect(page.contains("from &#39;Lisbon&#39;."))
        #expect(!page.contains("<Visa>") && !page.contains("<October>"))
    }

    @Test("Composition works as on any Sectional page")
    func composition() async throws {
        let client = InProcessClient(router)
        let page = try await client.get("/feed?sections=credit-score,alerts").bodyText
        let credit = try #require(page.range(of: #"id="credit-score""#))
        let alerts = try #require(page.range(of: #"id="alerts""#))
        #expect(credit.lowerBound < alerts.lowerBound)
        #expect(!page.contains(#"id="balances""#))

        let fragment = try await client.get("/feed/sections/alerts")
        #expect(fragment.bodyText.hasPrefix(#"<section class="section" id="alerts"><h2>Alerts</h2>"#))
    }

    @Test("Bad input gets a clear error and nothing else")
    func badInput() async throws {
        let client = InProcessClient(router)
        let unknown = try await client.get("/feed?add=savings")
        #expect(unknown.status == .badRequest)
        #expect(unknown.bodyText.contains("Unknown section &#39;savings&#39;"))
        let json = try await client.get("/api/feed/sections?remove=nope")
        #expect(json.status == .badRequest)
        #expect(json.bodyText.contains(#""validSections":["balances","alerts","credit-score"]"#))
        #expect(try await client.execute(.post, "/feed").status == .methodNotAllowed)
        #expect(try await client.get("/nowhere").status == .notFound)
    }

    @Test("A section renders alone with the data a test gives it")
    func sectionInIsolation() async throws {
        struct OneAccount: ReferenceStore {
            func accounts() throws -> [ReferenceData.Account] { [.init(name: "A & B", number: "****1", balanceCents: -5)] }
            func alerts() throws -> [ReferenceData.Alert] { [] }
            func credit() throws -> ReferenceData.Credit { .init(score: 0, band: "", history: []) }
        }
        let client = InProcessClient(ReferenceApp.router(store: OneAccount(), logger: LogCollector().logger))
        let fragment = try await client.get("/feed/sections/balances").bodyText
        #expect(fragment.contains(#"<span class="name">A &amp; B</span>"#))
        #expect(fragment.contains(#"<span class="amount">-$0.05</span>"#))
        #expect(fragment.contains(#"<p class="total">Total: -$0.05</p>"#))
    }

    @Test("An alert's severity is escaped in its class, its title and body as text")
    func alertEscaping() async throws {
        struct HostileAlert: ReferenceStore {
            func accounts() throws -> [ReferenceData.Account] { [] }
            func alerts() throws -> [ReferenceData.Alert] {
                [.init(severity: #"x" onclick="y"#, title: "<b>Late</b>", body: "Tom & 'Jerry'")]
            }
            func credit() throws -> ReferenceData.Credit { .init(score: 0, band: "", history: []) }
        }
        let client = InProcessClient(ReferenceApp.router(store: HostileAlert(), logger: LogCollector().logger))
        let fragment = try await client.get("/feed/sections/alerts").bodyText
        #expect(
            fragment.contains(
                #"<li class="alert alert-x&quot; onclick=&quot;y"><strong>&lt;b&gt;Late&lt;/b&gt;</strong> <p>Tom &amp; &#39;Jerry&#39;</p></li>"#))
        #expect(!fragment.contains("onclick=\"") && !fragment.contains("<b>"))
    }
}
