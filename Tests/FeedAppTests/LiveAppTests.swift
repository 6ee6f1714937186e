import Foundation
import HTTPServer
import Sectional
import SectionalTesting
import Testing

@testable import FeedApp

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("The app over a real socket")
struct LiveAppTests {
    @Test("/feed, a fragment and the JSON, fetched over HTTP")
    func pagesOverHTTP() async throws {
        let data = try AppData.memory()
        let router = try buildRouter(publicDirectory: AppHarness.publicDirectory, data: data, logger: LogCollector().logger)
        let cookie = try await InProcessClient(router).signIn()
        try await withLiveServer(router) { server in
            let base = "http://127.0.0.1:\(server.port)"
            func get(_ path: String) async throws -> (Data, URLResponse) {
                var request = URLRequest(url: URL(string: base + path)!)
                request.setValue(cookie, forHTTPHeaderField: "Cookie")
                return try await URLSession.shared.data(for: request)
            }

            let (page, pageResponse) = try await get("/feed")
            #expect((pageResponse as? HTTPURLResponse)?.statusCode == 200)
            #expect(String(decoding: page, as: UTF8.self).contains(#"data-section="credit-score""#))

            let (fragment, _) = try await get("/feed/sections/alerts")
            #expect(String(decoding: fragment, as: UTF8.self).hasPrefix(#"<section class="section" id="section-alerts""#))

            let (json, jsonResponse) = try await get("/api/feed/sections?add=checkup")
            #expect((jsonResponse as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type") == "application/json")
            let description = try JSONDecoder().decode(PageDescription.self, from: json)
            #expect(description.sections.map(\.id) == ["balances", "alerts", "credit-score", "checkup"])
        }
    }
}

@Suite("A malformed cookie beside the session")
struct OddCookieTests {
    /// Cookies a browser may hold beside the session: planted by a sibling
    /// subdomain or a script, or just malformed. libmicrohttpd 0.9.75 answered
    /// 431 on every route to the first two; each must be ignored, the session used.
    static let oddCookies = ["other=", #"other=""#, #"a=""#, "a=b=c", ";;", "noequals", "x=" + String(repeating: "a", count: 4096)]

    @Test("every page, fragment, the JSON and static files are answered, signed in", arguments: oddCookies)
    func everyRoute(odd: String) async throws {
        let data = try AppData.memory()
        let router = try buildRouter(publicDirectory: AppHarness.publicDirectory, data: data, logger: LogCollector().logger)
        let session = try await InProcessClient(router).signIn()
        try await withLiveServer(router) { server in
            let port = server.port
            try await onOwnThread {
                for cookie in ["\(session); \(odd)", "\(odd); \(session)"] {
                    let client = try RawHTTPClient(port: port)
                    for target in ["/feed", "/feed/sections/alerts", "/api/feed/sections", "/styles.css", "/healthz"] {
                        let response = try client.request(target, headers: ["Cookie: \(cookie)"])
                        #expect(response.status == 200, "\(target) with Cookie: \(cookie.prefix(60)) answered \(response.status)")
                    }
                    let page = try client.request("/feed", headers: ["Cookie: \(cookie)"])
                    #expect(page.text.contains(#"data-section="credit-score""#), "the signed-in feed, not the sign-in page")
                }
            }
        }
    }
}
