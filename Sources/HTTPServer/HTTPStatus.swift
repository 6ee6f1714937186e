/// An HTTP status code with its reason phrase.
public struct HTTPStatus: Hashable, Sendable, CustomStringConvertible {
    public let code: Int
    public let reason: String

    public init(_ code: Int, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public static let ok = HTTPStatus(200, "OK")
    public static let notModified = HTTPStatus(304, "Not Modified")
    public static let seeOther = HTTPStatus(303, "See Other")
    public static let badRequest = HTTPStatus(400, "Bad Request")
    public static let notFound = HTTPStatus(404, "Not Found")
    public static let methodNotAllowed = HTTPStatus(405, "Method Not Allowed")
    public static let contentTooLarge = HTTPStatus(413, "Content Too Large")
    public static let expectationFailed = HTTPStatus(417, "Expectation Failed")
    public static let internalServerError = HTTPStatus(500, "Internal Server Error")
    public static let serviceUnavailable = HTTPStatus(503, "Service Unavailable")

    public var description: String { "\(code) \(reason)" }

    /// A status is its code; the reason phrase is for people and may differ between servers.
    public static func == (lhs: HTTPStatus, rhs: HTTPStatus) -> Bool { lhs.code == rhs.code }

    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
