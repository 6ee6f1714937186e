import FoundationEssentials
import HTTPServer
import Sectional

extension Response {
    /// Headers every HTML answer carries: personal pages stay out of shared
    /// caches, and the page may run only its own script.
    static let htmlHeaders: HTTPHeaders = [
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "private, no-store",
        "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    ]

    /// A rendered HTML page or fragment.
    static func html(_ html: borrowing HTMLWriter, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: htmlHeaders, body: .bytes(html.bytes))
    }

    /// A value as JSON; `pretty` indents it for people.
    static func json(_ value: some Encodable, status: HTTPStatus = .ok, pretty: Bool = false) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain value types cannot fail.
        let body = (try? encoder.encode(value)).map(Array.init) ?? Array("{}".utf8)
        return Response(status: status, headers: ["Content-Type": "application/json", "Cache-Control": "private, no-store",
                                                  "X-Content-Type-Options": "nosniff"], body: .bytes(body + (pretty ? [10] : [])))
    }
}
