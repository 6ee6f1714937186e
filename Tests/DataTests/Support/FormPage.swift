import FeedApp
import FeedAppTestSupport
import Foundation
import HTTPServer
import SectionalSecurity
import SectionalTesting
import Testing

/// The app on some data, spoken to as a browser would: read a page, find
/// its forms, post them.
struct FormHarness {
    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    let client: InProcessClient
    let log = LogCollector()
    /// The `Cookie` field of the signed-in session.
    let cookie: String

    /// The app on `data`, signed in through its form as `user`.
    init(_ data: AppData, as user: SeedUser = SeedData.users[0], settings: AppSettings = AppSettings()) async throws {
        client = InProcessClient(try buildRouter(publicDirectory: Self.publicDirectory, data: data, settings: settings, logger: log.logger))
        cookie = try await client.signIn(user)
    }

    /// What this session's form tokens are signed for: the hash of its cookie's token.
    var sessionSubject: String { SecretToken.hash(String(cookie.drop { $0 != "=" }.dropFirst())) }

    /// `GET target`, signed in.
    func get(_ target: String) async throws -> TestResponse { try await client.get(target, headers: ["Cookie": cookie]) }

    /// `POST target` of these fields, signed in.
    func post(_ target: String, form fields: [(String, String)], headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        headers.add("Cookie", cookie)
        return try await client.post(target, form: fields, headers: headers)
    }

    /// The page's post forms: action and hidden fields, in page order.
    func forms(on target: String) async throws -> [PostedForm] {
        let html = try await get(target + (target.contains("?") ? "&" : "?") + "stream=0").bodyText
        return html.matches(of: /<form[^>]*method="post" action="([^"]*)"[^>]*>(.*?)<\/form>/).map { match in
            let fields = String(match.output.2).matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map {
                (String($0.output.1), String($0.output.2).replacingOccurrences(of: "&amp;", with: "&"))
            }
            return PostedForm(action: String(match.output.1), fields: fields)
        }
    }

    /// Posts `form` as a browser on this site would.
    func submit(_ form: PostedForm, headers: HTTPHeaders = ["Sec-Fetch-Site": "same-origin"]) async throws -> TestResponse {
        try await post(form.action, form: form.fields, headers: headers)
    }
}

struct PostedForm {
    var action: String
    var fields: [(String, String)]

    func field(_ name: String) -> String? { fields.first { $0.0 == name }?.1 }

    func replacing(_ name: String, with value: String?) -> PostedForm {
        var copy = self
        copy.fields.removeAll { $0.0 == name }
        if let value { copy.fields.append((name, value)) }
        return copy
    }
}
