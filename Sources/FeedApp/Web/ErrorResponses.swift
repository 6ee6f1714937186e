import HTTPServer
import Sectional

/// How the app answers errors: JSON under `/api/`, an HTML page elsewhere.
enum ErrorResponses {
    static func respond(_ error: HTTPError, to request: Request) -> Response {
        request.path.hasPrefix("/api/") ? json(error) : html(error)
    }

    /// `{"error":{"status":400,"message":"…","validSections":[…]}}`
    static func json(_ error: HTTPError) -> Response {
        .json(["error": ErrorBody(error: error)], status: error.status)
    }

    static func html(_ error: HTTPError) -> Response {
        var html = HTMLWriter()
        HTMLDocument(title: "\(error.status.reason) · Sectional", stylesheets: ["/styles.css"]) {
            SiteHeader(active: nil)
            main(.class("error-page")) {
                h1 { "\(error.status.code) \(error.status.reason)" }
                p { error.message }
                if let valid = error.details["validSections"], !valid.isEmpty {
                    p { "Valid sections:" }
                    ul(.class("valid-sections")) { for id in valid { li { "\(id)" } } }
                }
                p { a(.href("/feed")) { "Back to the feed" } }
            }
        }.render(into: &html)
        return .html(html, status: error.status)
    }

    private struct ErrorBody: Encodable {
        let error: HTTPError

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(error.status.code, forKey: Key(stringValue: "status"))
            try container.encode(error.message, forKey: Key(stringValue: "message"))
            for (name, values) in error.details.sorted(by: { $0.key < $1.key }) {
                try container.encode(values, forKey: Key(stringValue: name))
            }
        }
    }
}
