import FeedApp
import Foundation
import HTTPServer
import SectionalTesting

/// The app on some data, spoken to as a browser would: read a page, find
/// its forms, post them.
struct FormHarness {
    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    let client: InProcessClient
    let log = LogCollector()

    init(_ data: AppData) throws {
        client = InProcessClient(try buildRouter(publicDirectory: Self.publicDirectory, data: data, logger: log.logger))
    }

    /// The page's post forms: action and hidden fields, in page order.
    func forms(on target: String) async throws -> [PostedForm] {
        let html = try await client.get(target + (target.contains("?") ? "&" : "?") + "stream=0").bodyText
        return html.matches(of: /<form[^>]*method="post" action="([^"]*)"[^>]*>(.*?)<\/form>/).map { match in
            let fields = String(match.output.2).matches(of: /<input type="hidden" name="([^"]*)" value="([^"]*)">/).map {
                (String($0.output.1), String($0.output.2).replacingOccurrences(of: "&amp;", with: "&"))
            }
            return PostedForm(action: String(match.output.1), fields: fields)
        }
    }

    /// Posts `form` as a browser on this site would.
    func submit(_ form: PostedForm, headers: HTTPHeaders = ["Sec-Fetch-Site": "same-origin"]) async throws -> TestResponse {
        try await client.post(form.action, form: form.fields, headers: headers)
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
