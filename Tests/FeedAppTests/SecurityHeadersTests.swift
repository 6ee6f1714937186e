import HTTPServer
import SectionalTesting
import Testing

@testable import FeedApp

/// Every HTML answer (pages whole and streamed, fragments, error pages)
/// carries the security headers, and the policy allows no inline code: the
/// pages have no inline script, style or event handler to allow.
@Suite struct SecurityHeadersTests {
    let app: AppHarness

    init() async throws {
        app = try await AppHarness()
    }

    static let htmlTargets: [(method: HTTPMethod, target: String, status: Int)] = [
        (.get, "/feed", 200),
        (.get, "/feed?stream=0", 200),
        (.get, "/feed?stream=ooo&add=checkup", 200),
        (.head, "/feed", 200),
        (.get, "/feed?sections=credit-score,balances&add=recent-activity", 200),
        (.get, "/day?date=2026-11-03", 200),
        (.get, "/day?date=2026-11-03&stream=0&remove=sleep", 200),
        (.get, "/feed/sections/alerts", 200),
        (.get, "/day/sections/calendar?date=2026-11-03", 200),
        (.get, "/feed?sections=nope", 400),
        (.get, "/day?date=2026-02-30", 400),
        (.get, "/feed?stream=sideways", 400),
        (.get, "/feed?checkup=nope", 400),
        (.get, "/feed/sections/nope", 404),
        (.get, "/nothing-here", 404),
        (.get, "/feed%00", 404),
        (.post, "/feed", 405),
        (.delete, "/styles.css", 405),
    ]

    @Test(arguments: htmlTargets)
    func htmlAnswersCarryTheSecurityHeaders(method: HTTPMethod, target: String, status: Int) async throws {
        let response = try await app.get(target, method: method)
        #expect(response.status.code == status)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        Self.expectPrivate(response)
        #expect(response.headers["X-Content-Type-Options"] == "nosniff")
        #expect(response.headers["Referrer-Policy"] == "same-origin")
        let policy = try #require(response.headers["Content-Security-Policy"])
        let directives = Dictionary(
            uniqueKeysWithValues: policy.split(separator: ";").map { directive in
                let words = directive.split(separator: " ")
                return (String(words[0]), words.dropFirst().map(String.init))
            })
        #expect(directives["default-src"] == ["'self'"])
        #expect(directives["frame-ancestors"] == ["'none'"])
        #expect(directives["object-src"] == ["'none'"], "no plugins, whatever default-src allows")
        #expect(directives["base-uri"] == ["'none'"])
        #expect(response.headers["X-Frame-Options"] == "DENY", "for browsers that predate frame-ancestors")
        #expect(!policy.contains("unsafe-inline") && !policy.contains("unsafe-eval") && !policy.contains("*"))
        // Nothing widens scripts or styles beyond the site's own files.
        #expect(directives["script-src"] == nil && directives["style-src"] == nil)
    }

    @Test(arguments: htmlTargets.filter { $0.method == .get })
    func htmlHasNoInlineCode(method: HTTPMethod, target: String, status: Int) async throws {
        let html = try await app.get(target, method: method).bodyText
        #expect(!html.isEmpty)
        // Scripts only by src; no <style> element, style attribute, event handler or javascript: URL.
        #expect(html.matches(of: /<script(?![^>]*\ssrc=)/).isEmpty)
        #expect(!html.contains("<style"))
        #expect(html.matches(of: /\sstyle=/).isEmpty)
        #expect(html.matches(of: /\son[a-z]+=/).isEmpty)
        #expect(!html.lowercased().contains("javascript:"))
    }

    @Test func jsonAndTextAnswersAreNotSniffed() async throws {
        for target in ["/api/feed/sections", "/api/feed/sections?sections=nope", "/healthz"] {
            let response = try await app.get(target)
            #expect(response.headers["Content-Type"]?.hasPrefix("text/html") == false)
            if target.hasPrefix("/api/") {
                #expect(response.headers["X-Content-Type-Options"] == "nosniff")
                Self.expectPrivate(response)
            }
        }
    }

    /// Never in a shared cache: a full answer with its ETag may be kept by the
    /// user's browser and revalidated, per cookie; anything else is not kept.
    static func expectPrivate(_ response: TestResponse) {
        if response.headers["ETag"] != nil {
            #expect(response.status == .ok)
            #expect(response.headers["Cache-Control"] == "private, no-cache")
            #expect(response.headers["Vary"]?.contains("Cookie") == true)
        } else {
            #expect(response.headers["Cache-Control"] == "private, no-store")
        }
    }
}
