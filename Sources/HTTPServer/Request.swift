/// An HTTP request as a handler sees it: decoded path and query, headers,
/// and the values of the route's `{parameters}`.
public struct Request: Sendable {
    /// The request method.
    public var method: HTTPMethod
    /// The percent-decoded path, e.g. `/feed/sections/balances`.
    public var path: String
    /// The query's items in order, repeated names kept.
    public var query: [QueryItem]
    /// The header fields as sent.
    public var headers: HTTPHeaders
    /// Values of the matched route's `{name}` segments.
    public var parameters: [String: String] = [:]
    /// The body as received, at most the server's body limit; empty when none was sent.
    public var body: [UInt8]
    /// Names the request in the access log and in every line logged while
    /// it is answered (`Logger.requestID`): the proxy's `X-Request-ID` when
    /// it sent a sane one, else the server's own (`4f1c2a-1042`). Empty for
    /// a request made in a test without a server.
    public var id: String { name?.description ?? "" }
    /// The name the server gave it; `nil` without a server.
    var name: RequestID?
    /// The address the connection came from (`127.0.0.1`, `::1`), when known:
    /// a proxy's own address when a proxy forwards the request.
    public var clientAddress: String? {
        get { peer?.text }
        set { peer = newValue.map(PeerAddress.given) }
    }
    /// The address as the connection holds it, written out only when asked for.
    var peer: PeerAddress?
    /// Where the answer notes what its access-log line says of the request
    /// (who sent it); `nil` for a request made by hand, whose notes go nowhere.
    public var log: RequestLog?
    /// What middleware put on the request (`subscript(_:)`).
    var values = RequestValues()
    /// A request from its decoded parts, e.g. in a test.
    public init(method: HTTPMethod, path: String, query: [QueryItem] = [], headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    /// Parses a request target as sent on the request line, e.g. `/feed?add=checkup`.
    /// - Throws: a 400 `HTTPError` when the path or query is malformed.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) throws(HTTPError) {
        // Found among the bytes: a search by Character walks grapheme by grapheme, one through the
        // UTF-8 view index by index; the leading `/` too (a substring's `hasPrefix` compared
        // Characters: 960 instructions a request).
        var bytes = target
        let (questionMarkOffset, startsWithSlash) = bytes.withUTF8 { ($0.firstIndex(of: UInt8(ascii: "?")), $0.first == UInt8(ascii: "/")) }
        let questionMark = questionMarkOffset.map { target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
        let rawPath = target[..<(questionMark ?? target.endIndex)]
        guard startsWithSlash, let path = PercentDecoding.decode(rawPath, plusIsSpace: false) else {
            throw HTTPError(.badRequest, "The request path is malformed.")
        }
        var query: [QueryItem] = []
        if let questionMark {
            query = try QueryItem.parse(target[target.index(after: questionMark)...])
        }
        self.init(method: method, path: path, query: query, headers: headers, body: body)
    }

    /// Every value given for `name`, in order.
    public func queryValues(_ name: String) -> [String] {
        query.compactMap { $0.name == name ? $0.value : nil }
    }

    /// The first value given for `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }

    /// Whether the query names `name` at all, with or without a value (`?pretty`).
    public func hasQueryItem(_ name: String) -> Bool {
        query.contains { $0.name == name }
    }
}
