import HTTPServer

/// JSON answers, such as those of the `/api` routes.
extension Response {
    /// A value as JSON; `pretty` indents it for people.
    /// Keys are sorted; a value JSON cannot hold (a NaN) sends `{}`.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok, pretty: Bool = false) -> Response {
        let body = (try? JSONEncoding.encode(value, pretty: pretty)) ?? Array("{}".utf8)
        return Response(status: status, headers: jsonHeaders, body: .bytes(body + (pretty ? [10] : [])))
    }

    /// The headers of every JSON answer: personal, and not to be sniffed as anything else.
    static let jsonHeaders: HTTPHeaders = [
        "Content-Type": "application/json", "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff",
    ]
}
