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

    /// An error with its status, message and optional detail.
    public init(_ status: HTTPStatus, _ message: String, detail: (any HTTPErrorDetail)? = nil) {
        self.status = status
        self.message = message
        self.detail = detail
    }
}

/// Typed detail of an `HTTPError`. A JSON error body encodes its fields
/// beside `status` and `message`.
public protocol HTTPErrorDetail: Sendable, Encodable {}
