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
    func respondImmediately(to request: Request) -> Response?

    /// The answer to a request that cannot succeed whatever its body says
    /// (no route, a method the route does not take), given before the body
    /// is read and before `100 Continue` is sent; `nil` reads the body.
    func refusal(for request: Request) -> Response?
}

extension Responder {
    public func respondImmediately(to request: Request) -> Response? { nil }

    public func refusal(for request: Request) -> Response? { nil }
}
