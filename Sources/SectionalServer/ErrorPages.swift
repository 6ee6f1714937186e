import HTTPServer
import Sectional

extension Site {
    /// How the site answers errors: JSON under `/api/`, an HTML page elsewhere.
    public func errorResponse(_ error: HTTPError, to request: Request) -> Response {
        request.path.hasPrefix("/api/") ? Self.jsonError(error) : errorPage(error)
    }

    /// `{"error":{"status":400,"message":"…", …the detail's fields}}`
    public static func jsonError(_ error: HTTPError) -> Response {
        .json(["error": ErrorBody(error: error)], status: error.status)
    }

    /// The error in the site's frame, with the valid sections when it names
    /// them, under `banner` (the site's for no page by default; a page that
    /// knows its visitor gives its own).
    public func errorPage(_ error: HTTPError, banner pageBanner: (any HTML)? = nil) -> Response {
        var html = HTMLWriter()
        HTMLDocument(title: "\(error.status.reason) · \(name)", head: head) {
            HTMLRenderer { html in (pageBanner ?? banner(nil)).render(into: &html) }
            main(.class("error-page")) {
                h1 { "\(error.status.code) \(error.status.reason)" }
                p { error.message }
                if let valid = (error.detail as? ValidSections)?.validSections, !valid.isEmpty {
                    p { "Valid sections:" }
                    ul(.class("valid-sections")) { for id in valid { li { id.rawValue } } }
                }
                p { a(.href(home.path)) { home.label } }
            }
        }.render(into: &html)
        var response = self.html(html, status: error.status)
        for (name, value) in error.headers { response.headers[name] = value }
        // Moved out, not copied: `Response` says why.
        return consume response
    }

    private struct ErrorBody: Encodable {
        let error: HTTPError

        private enum Key: String, CodingKey { case status, message }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(error.status.code, forKey: .status)
            try container.encode(error.message, forKey: .message)
            // The detail's own keys join the same object.
            try error.detail?.encode(to: encoder)
        }
    }
}

/// A router that serves a site's composed pages and answers errors the site's way.
extension Router {
    /// Answers every error of this router in the site's way.
    public mutating func useErrorPages(of site: Site) {
        errorResponder = { error, request in site.errorResponse(error, to: request) }
    }
}
