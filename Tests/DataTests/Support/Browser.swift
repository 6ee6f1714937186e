import FeedApp
import FeedAppTestSupport
import Foundation
import HTTPServer
import SectionalTesting
import Synchronization

/// A browser's view of the app: one cookie jar (the session), sent with
/// every request and updated by every `Set-Cookie`.
final class Browser: Sendable {
    let client: any TestClient
    private let jar = Mutex<String?>(nil)

    init(_ client: any TestClient) { self.client = client }

    var cookie: String? {
        get { jar.withLock { $0 } }
        set { jar.withLock { $0 = newValue } }
    }

    func get(_ target: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        keep(try await client.get(target, headers: withCookie(headers)))
    }

    func post(_ target: String, form fields: [(String, String)], headers: HTTPHeaders = [:]) async throws -> TestResponse {
        keep(try await client.post(target, form: fields, headers: withCookie(headers)))
    }

    /// Posts the sign-in form, keeping the session it gives.
    @discardableResult
    func signIn(_ name: String, _ password: String, next: String? = nil, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        keep(try await client.postSignIn(name, password, next: next, headers: withCookie(headers)))
    }

    private func withCookie(_ headers: HTTPHeaders) -> HTTPHeaders {
        var headers = headers
        if let cookie { headers.add("Cookie", cookie) }
        return headers
    }

    private func keep(_ response: TestResponse) -> TestResponse {
        if let set = response.headers["Set-Cookie"] {
            let pair = String(set.prefix { $0 != ";" })
            cookie = set.contains("Max-Age=0") ? nil : pair
        }
        return response
    }

    /// The hidden fields of the page's form posting to `action`.
    static func form(_ action: String, in html: String) -> [(String, String)]? {
        for match in html.matches(of: /<form[^>]*action="([^"]*)"[^>]*>(.*?)<\/form>/) where match.output.1 == action {
            return String(match.output.2).matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map {
                (String($0.output.1), String($0.output.2).replacingOccurrences(of: "&amp;", with: "&"))
            }
        }
        return nil
    }
}

/// A clock a test moves: Unix seconds.
final class TestNow: Sendable {
    private let seconds = Mutex(1_800_000_000)
    var now: @Sendable () -> Int { { [self] in seconds.withLock { $0 } } }
    func advance(_ by: Int) { seconds.withLock { $0 += by } }
}
