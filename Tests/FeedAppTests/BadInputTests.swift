import Foundation
import HTTPServer
import SectionalTesting
import Testing

@testable import FeedApp

@Suite("Bad input gets a clear answer and changes nothing")
struct BadInputTests {
    let app: AppHarness
    init() async throws { app = try await AppHarness() }

    @Test(
        "An unknown section is a 400 page naming the valid ones",
        arguments: [
            "/feed?sections=balances,nope", "/feed?add=nope", "/feed?remove=nope", "/feed/sections/balances?add=nope",
        ])
    func unknownSectionPage(target: String) async throws {
        let response = try await app.get(target)
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.bodyText.contains("Unknown section &#39;nope&#39;"))
        for id in ["balances", "alerts", "credit-score", "recent-activity", "notices", "checkup"] {
            #expect(response.bodyText.contains(id))
        }
    }

    @Test("A page's error keeps its banner: the visitor is still shown signed in, with the way to sign out")
    func errorPageKeepsTheVisitor() async throws {
        // A malformed composition or delivery, or a context that cannot be read (a bad date or check-up answer).
        let targets = ["/feed?sections=nope", "/feed?stream=sideways", "/day?sections=nope", "/day?date=2026-02-30", "/feed?checkup=nope:x"]
        for target in targets {
            let response = try await app.get(target)
            #expect(response.status == .badRequest, "\(target)")
            #expect(response.bodyText.contains("Alex O&#39;Brien"), "\(target)")
            #expect(response.bodyText.contains(#"action="/signout""#), "\(target)")
            #expect(response.bodyText.contains(#"aria-current="page""#), "\(target): the page's own banner")
        }
    }

    @Test("An unknown section under /api is a 400 in JSON with the valid ids")
    func unknownSectionJSON() async throws {
        let response = try await app.get("/api/feed/sections?add=nope,worse")
        #expect(response.status == .badRequest)
        #expect(response.headers["Content-Type"] == "application/json")
        let error = try JSONDecoder().decode(ErrorEnvelope.self, from: Data(response.bodyBytes)).error
        #expect(error.status == 400)
        #expect(error.message.contains("'nope', 'worse'"))
        #expect(error.validSections == ["balances", "alerts", "credit-score", "recent-activity", "notices", "checkup"])
    }

    @Test("A query value echoed into a page is escaped")
    func echoedValuesAreEscaped() async throws {
        let response = try await app.get("/feed?add=%3Cscript%3Ealert(1)%3C%2Fscript%3E")
        #expect(response.status == .badRequest)
        #expect(!response.bodyText.contains("<script>alert"))
        #expect(response.bodyText.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
    }

    @Test(
        "A malformed or impossible date is a 400 that shows the expected form",
        arguments: [
            "2026-02-30", "2026-13-01", "2026-00-10", "26-11-03", "2026-11-3", "2026-11-03x", "tomorrow", "", "2026/11/03", "+026-11-03",
        ])
    func badDate(date: String) async throws {
        let response = try await app.get("/day?date=" + date)
        #expect(response.status == .badRequest)
        #expect(response.bodyText.contains("YYYY-MM-DD"))
        let json = try await app.get("/api/day/sections?date=" + date)
        #expect(json.status == .badRequest)
        #expect(json.headers["Content-Type"] == "application/json")
    }

    @Test(
        "A check-up answer that is not a choice is a 400 listing the valid ones",
        arguments: [
            "retirement:lots", "nonsense", "savings:6-plus", "retirement",
        ])
    func badCheckupAnswer(value: String) async throws {
        let response = try await app.get("/feed?add=checkup&checkup=" + value)
        #expect(response.status == .badRequest)
        #expect(response.bodyText.contains("checkup"))
        #expect(response.bodyText.contains("emergency-fund") || response.bodyText.contains("retirement:no"))
    }

    @Test("An unknown fragment is a 404 that names the valid sections")
    func unknownFragment() async throws {
        let response = try await app.get("/feed/sections/nope")
        #expect(response.status == .notFound)
        #expect(response.bodyText.contains("credit-score"))
        #expect(try await app.get("/day/sections/balances").status == .notFound)
    }

    @Test("Methods other than GET and HEAD get 405 with Allow", arguments: [HTTPMethod.post, .put, .delete, .options])
    func methodNotAllowed(method: HTTPMethod) async throws {
        for target in ["/feed", "/api/feed/sections", "/feed/sections/alerts", "/styles.css"] {
            let response = try await app.get(target, method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers["Allow"] == "GET, HEAD")
        }
    }

    @Test(
        "Nothing a client sends makes the server answer 500",
        arguments: [
            "/feed?sections=,,,", "/feed?sections=%20balances%20", "/feed?add=&remove=", "/feed?sections=balances&sections=",
            "/feed?%E2%9C%93=%E2%9C%93", "/day?date=9999-12-31", "/day?date=0001-01-01", "/day?date=2024-02-29",
            "/feed/sections/", "/feed/sections/balances/extra", "/api/feed/sections?pretty=no", "/feed?checkup=",
            "/day?date=2026-11-03&date=2026-11-04", "/feed?sections=" + String(repeating: "balances,", count: 500),
        ])
    func neverA500(target: String) async throws {
        let response = try await app.get(target)
        #expect(response.status.code < 500)
    }

    @Test("Malformed percent-encoding is a 400 before any page code runs")
    func malformedEncoding() async throws {
        let response = try await app.get("/feed?sections=%zz")
        #expect(response.status == .badRequest)
        #expect(response.bodyText.contains("malformed"))
    }
}

struct ErrorEnvelope: Decodable {
    struct Body: Decodable {
        var status: Int
        var message: String
        var validSections: [String]?
    }
    var error: Body
}
