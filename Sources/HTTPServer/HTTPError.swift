/// An error that carries the status and the message its client is told.
///
/// Throw it from a handler for a 4xx answer. Any other error thrown by a
/// handler becomes a 500 whose details are logged, never sent.
public struct HTTPError: Error, Sendable, Equatable {
    public var status: HTTPStatus
    public var message: String
    /// Lists a client may use to correct its request, e.g. `["validSections": […]]`.
    public var details: [String: [String]]

    public init(_ status: HTTPStatus, _ message: String, details: [String: [String]] = [:]) {
        self.status = status
        self.message = message
        self.details = details
    }
}
