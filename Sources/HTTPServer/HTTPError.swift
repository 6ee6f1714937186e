/// An error that carries the status and the message its client is told.
///
/// Throw it from a handler for a 4xx answer. Any other error thrown by a
/// handler becomes a 500 whose details are logged, never sent.
///
/// ```swift
/// throw HTTPError(.badRequest, "date '\(text)' is not a date; use YYYY-MM-DD.")
/// ```
public struct HTTPError: Error, Sendable {
    /// The status the client is answered with.
    public var status: HTTPStatus
    /// What the client is told, one sentence a person can act on.
    public var message: String
    /// What a client may use to correct its request, such as the valid
    /// choices; an app's error pages render the kinds they know.
    public var detail: (any HTTPErrorDetail)?
    /// Fields the answer carries whoever renders it: `Location` of a 303 to
    /// a sign-in page, `Retry-After` of a 429, `WWW-Authenticate` of a 401.
    public var headers: HTTPHeaders

    /// An error with its status, message and optional detail and header fields.
    public init(_ status: HTTPStatus, _ message: String, detail: (any HTTPErrorDetail)? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.message = message
        self.detail = detail
        self.headers = headers
    }
}

/// Typed detail of an `HTTPError`. A JSON error body encodes its fields
/// beside `status` and `message`.
public protocol HTTPErrorDetail: Sendable, Encodable {}
