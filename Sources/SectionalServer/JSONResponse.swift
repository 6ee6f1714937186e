import FoundationEssentials
import HTTPServer

/// JSON answers, such as those of the `/api` routes.
extension Response {
    /// A value as JSON; `pretty` indents it for people.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok, pretty: Bool = false) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // Encoding these plain value types cannot fail.
        let body = (try? encoder.encode(value)).map(Array.init) ?? Array("{}".utf8)
        return Response(status: status, headers: jsonHeaders, body: .bytes(body + (pretty ? [10] : [])))
    }

    /// The headers of every JSON answer: personal, and not to be sniffed as anything else.
    static let jsonHeaders: HTTPHeaders = [
        "Content-Type": "application/json", "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff",
    ]
}
