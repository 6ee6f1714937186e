/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    /// The three-digit code, e.g. 404.
    public let code: Int
    /// The reason phrase, e.g. `Not Found`.
    public let reason: String

    /// A status from its code and reason phrase.
    public init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    /// 200: the answer is in the body.
    public static let ok = HTTPStatus(200, "OK")
    /// 304: the client's cached copy is still current.
    public static let notModified = HTTPStatus(304, "Not Modified")
    /// 303: look at the `Location` instead, with GET.
    public static let seeOther = HTTPStatus(303, "See Other")
    /// 400: the request is malformed.
    public static let badRequest = HTTPStatus(400, "Bad Request")
    /// 401: who is asking must say so (sign in, or send a token).
    public static let unauthorized = HTTPStatus(401, "Unauthorized")
    /// 403: understood, and refused.
    public static let forbidden = HTTPStatus(403, "Forbidden")
    /// 404: nothing is at this path.
    public static let notFound = HTTPStatus(404, "Not Found")
    /// 405: the path exists but not for this method; `Allow` lists those it takes.
    public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    /// 413: the request body is larger than the server reads.
    public static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    /// 415: the body is in a format the route does not read.
    public static let unsupportedMediaType = HTTPStatus(415, "Unsupported Media Type")
    /// 417: the `Expect` field asks for something the server does not do.
    public static let expectationFailed = HTTPStatus(417, "Expectation Failed")
    /// 429: too many attempts; `Retry-After` says when to try again.
    public static let tooManyRequests = HTTPStatus(429, "Too Many Requests")
    /// 500: the server failed; the details are in its log.
    public static let internalServerError = HTTPStatus(500, "Internal Server Error")
    /// 503: the server cannot answer now, e.g. while stopping.
    public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")

    public var description: String { "\(code) \(reason)" }

    /// A status is its code; the reason phrase is for people and may differ between servers.
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
