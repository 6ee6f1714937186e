/// The one seam between HTTP and an application: a request in, a response out.
///
/// ```swift
/// struct Hello: Responder {
///     func respond(to request: Request) async throws -> Response {
///         "hello".response()
///     }
/// }
/// ```
public protocol Responder: Sendable {
    /// Answers a request. Errors other than `HTTPError` become a 500.
    func respond(to request: Request) async throws -> Response

    /// Answers at once when the answer needs no waiting (a fixed reply, a
    /// static file); `nil` sends the request down the async path. The server
    /// calls this first because it spares the hop to a task.
    func respondSynchronously(to request: Request) -> Response?

    /// The answer at once, or the work that gives it: what the server asks.
    /// The default asks `respondSynchronously(to:)`, then leaves the work to
    /// `respond(to:)`; `Router` finds its route once for both. The request
    /// is the responder's to keep: moved in, not copied.
    func reply(to request: consuming Request) -> Reply

    /// The answer to a request that cannot succeed whatever its body says
    /// (no route, a method the route does not take), given before the body
    /// is read and before `100 Continue` is sent; `nil` reads the body.
    func refusal(for request: Request) -> Response?

    /// `error` answered as the responder answers its own errors (a page, or
    /// JSON under an API), for what the server refuses before any route runs.
    func errorResponse(_ error: HTTPError, for request: Request) -> Response
}

/// A responder's answer to a request: ready now, or work for the server to run in a task.
public enum Reply: Sendable {
    /// The answer, which needed no waiting.
    case now(Response)
    /// Work that answers; errors other than `HTTPError` become a 500.
    case later(@Sendable () async throws -> Response)
}

extension Responder {
    public func respondSynchronously(to request: Request) -> Response? { nil }

    public func reply(to request: consuming Request) -> Reply {
        let request = request  // a consuming parameter may change, so a `@Sendable` closure cannot capture it; a `let` can
        if let response = respondSynchronously(to: request) { return .now(response) }
        return .later { try await respond(to: request) }
    }

    public func refusal(for request: Request) -> Response? { nil }

    public func errorResponse(_ error: HTTPError, for request: Request) -> Response { error.response() }
}
