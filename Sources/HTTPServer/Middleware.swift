/// A step every request to a router passes through on its way to its route
/// (a page, a handler, a static file, a 404), in the order `Router.use(_:)`
/// added them. A middleware may answer itself, pass the request on changed
/// (a value for the handlers, `Request.subscript(_:)`), or change what comes
/// back.
///
/// It answers with a `Reply`, as a route does: `.now` when the answer needs
/// no waiting, so that a page's kept `304` or a static file stays on the
/// server's thread; `.later` with work that waits.
///
/// ```swift
/// struct Strict: Middleware {
///     func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
///         next(request).map { response in
///             var response = response
///             response.headers["Strict-Transport-Security"] = "max-age=31536000"
///             return response
///         }
///     }
/// }
/// router.use(Strict())
/// ```
public protocol Middleware: Sendable {
    /// The rest of the chain: the middleware after this one, then the route.
    typealias Next = @Sendable (Request) -> Reply

    /// Answers `request`, by itself or through `next`. A thrown `HTTPError`
    /// is answered as the router answers errors (the site's error page, or
    /// JSON under `/api/`); so is one thrown by `.later` work.
    func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply

    /// Whether `request` goes through this middleware at all; one it does
    /// not handle passes it by, with no step of the chain made for it (a
    /// request no middleware handles goes to its route as it is). Every
    /// request, unless the middleware says otherwise.
    func handles(_ request: Request) -> Bool
}

extension Middleware {
    public func handles(_ request: Request) -> Bool { true }
}

extension Reply {
    /// This reply with `change` made to its response: at once, or when its work is done.
    public func map(_ change: @escaping @Sendable (Response) -> Response) -> Reply {
        switch self {
        case .now(let response): .now(change(response))
        case .later(let work): .later { change(try await work()) }
        }
    }

    /// The response: as it is, or once its work is done.
    public func response() async throws -> Response {
        switch self {
        case .now(let response): response
        case .later(let work): try await work()
        }
    }
}

/// A key for a value a middleware puts on a request for whatever comes
/// after it: a type of its own, so that no two parts of an app can mix
/// their values up.
///
/// ```swift
/// enum Tenant: RequestValueKey { typealias Value = String }
/// request[Tenant.self] = "acme"
/// ```
public protocol RequestValueKey {
    /// What the key holds.
    associatedtype Value: Sendable
}

/// Values put on a request by middleware, by their keys' types.
struct RequestValues: Sendable {
    /// None until the first is put: most requests carry none, and every request makes this.
    private var values: [ObjectIdentifier: any Sendable]?

    subscript<Key: RequestValueKey>(key: Key.Type) -> Key.Value? {
        get { values?[ObjectIdentifier(key)] as? Key.Value }
        set {
            var all = values ?? [:]
            all[ObjectIdentifier(key)] = newValue
            values = all
        }
    }
}

extension Request {
    /// The value a middleware put on this request under `key`, if any.
    public subscript<Key: RequestValueKey>(key: Key.Type) -> Key.Value? {
        get { values[key] }
        set { values[key] = newValue }
    }
}
