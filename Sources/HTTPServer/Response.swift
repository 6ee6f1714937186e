/// An HTTP response: status, headers and a body of bytes or a file.
///
/// Code that changes an answer on its way out takes it `consuming` and
/// ends with `return consume response`: returned as it is, a changed
/// value this large was copied and the original destroyed, not moved
/// (six retains, six releases and 320 instructions a time; three times
/// a page).
public struct Response: Sendable {
    /// What the response sends after its headers.
    public enum Body: Sendable {
        /// Bytes in memory, sent with a `Content-Length`.
        case bytes([UInt8])
        /// Bytes in a buffer of their own, handed over without a copy (a
        /// rendered page's), sent with a `Content-Length`.
        case buffer(ResponseBuffer)
        /// A regular file sent with `sendfile`; `size` is its length in bytes.
        case file(path: String, size: UInt64)
        /// Bytes written as they are produced, sent chunked.
        case stream(ResponseStream)

        /// The length when known up front; 0 for a stream.
        public var count: UInt64 {
            switch self {
            case .bytes(let bytes): UInt64(bytes.count)
            case .buffer(let buffer): UInt64(buffer.count)
            case .file(_, let size): size
            case .stream: 0
            }
        }
    }

    // A change to what goes out drops the response built for resending, which
    // no longer says it (a middleware adding a field to a file kept in memory).
    /// The status line's status.
    public var status: HTTPStatus { didSet { prepared = nil } }
    /// The header fields; `Content-Length` is the server's to set.
    public var headers: HTTPHeaders { didSet { prepared = nil } }
    /// What follows the headers.
    public var body: Body { didSet { prepared = nil } }
    /// Sent as `Server-Timing` and repeated in the access log.
    public var timing: ServerTiming? { didSet { prepared = nil } }
    /// The route that answered, as registered (`/feed/sections/{id}`): a
    /// metric's label, never the raw path. Set by the router.
    public var route: String?
    /// The same answer, built once for libmicrohttpd, when it is sent often unchanged.
    var prepared: PreparedResponse?

    /// This answer with libmicrohttpd's response built now, once, for an
    /// answer sent again and again unchanged (a kept `304`, a file held in
    /// memory): each send then queues it as it is, its headers not added
    /// again. A body that is not bytes in memory is built at each send.
    public func preparedForResending() -> Response {
        var response = self
        response.prepared = PreparedResponse(self)
        return response
    }

    /// A response from its parts.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A UTF-8 body with the given content type.
    public init(status: HTTPStatus = .ok, contentType: String, body: some StringProtocol) {
        self.init(status: status, headers: ["Content-Type": contentType], body: .bytes(Array(body.utf8)))
    }

    /// The headers as they go out: `headers`, with `Server-Timing` from `timing`.
    public var sentHeaders: HTTPHeaders {
        guard let timing, !timing.isEmpty else { return headers }
        var sent = headers
        sent["Server-Timing"] = timing.headerValue
        return sent
    }

    /// The body's bytes; empty for a file or stream body. Meant for tests and small answers.
    public var bodyBytes: [UInt8] {
        switch body {
        case .bytes(let bytes): bytes
        case .buffer(let buffer): buffer.withBytes { Array($0) }
        case .file, .stream: []
        }
    }

    /// The body as UTF-8 text; empty for a file or stream body.
    public var bodyText: String { String(decoding: bodyBytes, as: UTF8.self) }
}

extension Response {
    /// `303 See Other` to `location`: the answer to a form post, which the
    /// browser follows with a GET, so that reload and back never post again.
    public static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: ["Location": location, "Cache-Control": "no-store"])
    }
}
