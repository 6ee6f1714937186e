/// Routes requests by method and path to handlers; serves static files for
/// paths no route claims; answers 404 and 405 itself.
///
/// ```swift
/// var router = Router()
/// router.get("/hello/{name}") { request in "hello \(request.parameters["name"]!)" }
/// ```
public struct Router: Responder {
    /// A handler that may wait: it runs in a task.
    public typealias Handler = @Sendable (Request) async throws -> Response
    /// A handler whose answer is ready at once: it runs on the server's thread.
    public typealias SynchronousHandler = @Sendable (Request) throws -> Response
    /// A handler that answers at once when it can and hands back the work
    /// that waits when it cannot: it runs on the server's thread, its work in a task.
    public typealias ReplyingHandler = @Sendable (Request) throws -> Reply

    enum Action: Sendable {
        case async(Handler)
        case synchronous(SynchronousHandler)
        case replying(ReplyingHandler)
    }

    /// A path's handlers by method; a GET handler answers HEAD too.
    struct Route: Sendable {
        /// As registered: the `route` label of its answers.
        var pattern = ""
        var actions: [HTTPMethod: Action] = [:] {
            didSet { get = actions[.get] }
        }
        /// The GET handler, looked up without hashing: nearly every request is a GET.
        private var get: Action?

        init(pattern: String = "", actions: [HTTPMethod: Action] = [:]) {
            self.pattern = pattern
            self.actions = actions
            get = actions[.get]
        }

        func action(for method: HTTPMethod) -> Action? {
            if method == .get { return get }
            return actions[method] ?? (method == .head ? get : nil)
        }

        /// Every method answered, HEAD with GET, for `Allow`.
        var allowed: [String] {
            var methods = actions.keys.map(\.rawValue)
            if actions[.get] != nil && actions[.head] == nil { methods.append("HEAD") }
            return methods.sorted { Self.order($0) < Self.order($1) }
        }

        private static func order(_ method: String) -> (Int, String) {
            (["GET", "HEAD", "POST"].firstIndex(of: method) ?? 3, method)
        }
    }

    private var exactRoutes: [RoutePath: Route] = [:]
    private var patternRoutes: [(pattern: RoutePattern, route: Route)] = []
    /// Serves what no route claims; `nil` serves no files.
    public var staticFiles: StaticFiles?
    /// Renders every error answer (404, 405, a thrown `HTTPError`, the 500
    /// that stands for any other error). The default sends the message as text.
    public var errorResponder: @Sendable (HTTPError, Request) -> Response = { error, _ in error.response() }
    /// Where hidden errors (the causes of 500s) are logged.
    public var logger: Logger
    /// What every request passes through before its route, outermost first (`use(_:)`).
    private var middlewares: [any Middleware] = []
    /// Development only: a 500's page says what failed and on which route,
    /// not only the log. Never in production: the cause may say what a
    /// visitor should not read.
    public var showsErrorCauses = false

    /// A router with no routes yet, serving `staticFiles` for paths no route claims.
    public init(staticFiles: StaticFiles? = nil, logger: Logger = .standardError) {
        self.staticFiles = staticFiles
        self.logger = logger
    }

    /// Adds a route for `method` answered by an async handler. `pattern`
    /// segments written `{name}` match any one segment and appear in
    /// `request.parameters`.
    public mutating func on<Result: ResponseConvertible>(
        _ method: HTTPMethod, _ pattern: String, _ handler: @escaping @Sendable (Request) async throws -> Result
    ) {
        add(method, pattern, .async { request in try await handler(request).response() })
    }

    /// Adds a GET (and HEAD) route answered by an async handler.
    public mutating func get<Result: ResponseConvertible>(
        _ pattern: String, _ handler: @escaping @Sendable (Request) async throws -> Result
    ) {
        on(.get, pattern, handler)
    }

    /// Adds a GET (and HEAD) route whose answer is ready without waiting;
    /// the server answers it on its own thread, skipping the hop to a task.
    public mutating func getSynchronously<Result: ResponseConvertible>(
        _ pattern: String, _ handler: @escaping @Sendable (Request) throws -> Result
    ) {
        add(.get, pattern, .synchronous { request in try handler(request).response() })
    }

    /// Adds a route for `method` whose handler decides per request: `.now`
    /// with an answer that needed no waiting (the server sends it from its
    /// own thread, with no task), or `.later` with the work that waits. A
    /// page whose data is in memory answers `.now`; the same page on a
    /// database answers `.later`.
    public mutating func on(_ method: HTTPMethod, _ pattern: String, replying handler: @escaping ReplyingHandler) {
        add(method, pattern, .replying(handler))
    }

    private mutating func add(_ method: HTTPMethod, _ pattern: String, _ action: Action) {
        let parsed = RoutePattern(pattern)
        if parsed.isLiteral {
            exactRoutes[RoutePath(pattern), default: Route(pattern: pattern)].actions[method] = action
        } else if let index = patternRoutes.firstIndex(where: { $0.pattern.hasShape(of: parsed) }) {
            // One route per shape: its parameters must be named alike for every method.
            precondition(
                patternRoutes[index].pattern.segments == parsed.segments,
                "\(pattern) names its parameters unlike the route of the same shape registered before it")
            patternRoutes[index].route.actions[method] = action
        } else {
            patternRoutes.append((parsed, Route(pattern: pattern, actions: [method: action])))
        }
    }

    public func respondSynchronously(to request: Request) -> Response? {
        guard case .now(let response) = reply(to: request) else { return nil }
        return response
    }

    public func respond(to request: Request) async -> Response {
        switch reply(to: request) {
        case .now(let response): return response
        case .later(let work):
            do { return try await work() } catch { return errorResponse(error, for: request) }
        }
    }

    /// Sends every request through `middleware` before its route (and
    /// before the middleware added after this one). A request refused before
    /// its body is read (no route for a body, a body too large) is answered
    /// without it.
    public mutating func use(_ middleware: some Middleware) {
        middlewares.append(middleware)
    }

    /// The request through the middleware that handles it, then its route.
    public func reply(to request: consuming Request) -> Reply {
        // Most requests pass every middleware by (a limit on posts, and a GET):
        // found first, they go to their route as they are, with no step made.
        guard let first = nextMiddleware(for: request, from: 0) else { return routeReply(to: request) }
        return reply(to: request, at: first)
    }

    /// The first middleware from `index` on that handles `request`.
    private func nextMiddleware(for request: Request, from index: Int) -> Int? {
        middlewares[index...].firstIndex { $0.handles(request) }
    }

    /// `request` through the middleware at `index`, then the rest, then its route. An
    /// error is answered where it is thrown, so the middleware before it sees its answer.
    private func reply(to request: Request, at index: Int) -> Reply {
        let reply: Reply
        do {
            reply = try middlewares[index].reply(to: request) { [self] passed in
                guard let next = nextMiddleware(for: passed, from: index + 1) else { return routeReply(to: passed) }
                return self.reply(to: passed, at: next)
            }
        } catch {
            return .now(Self.labelled(errorResponse(error, for: request), Self.middlewareLabel))
        }
        guard case .later(let work) = reply else { return reply }
        return .later { [errorResponder, logger, showsErrorCauses] in
            do {
                return try await work()
            } catch {
                let answer = Self.errorResponse(error, for: request, answeredBy: errorResponder, logger: logger, showingCause: showsErrorCauses)
                return Self.labelled(answer, Self.middlewareLabel)
            }
        }
    }

    /// The route label (access log, metrics) of an error a middleware threw: a 429 of a rate limit is not "unmatched".
    static let middlewareLabel = "middleware"

    /// The route found once: answered here when it needs no waiting, else the work of its handler.
    private func routeReply(to request: consuming Request) -> Reply {
        switch resolve(request) {
        case .route(.synchronous(let handler), let routed, let pattern):
            return .now(Self.labelled(answering(routed) { try handler(routed) }, pattern))
        case .route(.async(let handler), let routed, let pattern):
            // Only what an error needs is captured: a copy of the whole router cost a dozen retains a request.
            return .later { [errorResponder, logger, showsErrorCauses] in
                await Self.settled(pattern, routed, errorResponder, logger, showsErrorCauses) { try await handler(routed) }
            }
        case .route(.replying(let handler), let routed, let pattern):
            do {
                switch try handler(routed) {
                case .now(let response):
                    return .now(Self.labelled(response, pattern))
                case .later(let work):
                    return .later { [errorResponder, logger, showsErrorCauses] in
                        await Self.settled(pattern, routed, errorResponder, logger, showsErrorCauses, work)
                    }
                }
            } catch {
                return .now(Self.labelled(errorResponse(error, for: routed), pattern))
            }
        case .answered(let response):
            return .now(response)
        }
    }

    /// The answer of a handler's `work`, or of the error it threw, labelled with its route.
    private static func settled(
        _ pattern: String, _ request: Request, _ errorResponder: (HTTPError, Request) -> Response, _ logger: Logger,
        _ showsCause: Bool, _ work: () async throws -> Response
    ) async -> Response {
        do {
            return labelled(try await work(), pattern)
        } catch {
            return labelled(errorResponse(error, for: request, answeredBy: errorResponder, logger: logger, showingCause: showsCause), pattern)
        }
    }

    /// The request, moved rather than copied, with its route's parameters.
    private static func routed(_ request: consuming Request, _ parameters: [String: String]) -> Request {
        request.parameters = parameters
        return consume request  // `Response` says why
    }

    /// The response, moved rather than copied, with the route that answered.
    private static func labelled(_ response: consuming Response, _ route: String) -> Response {
        response.route = route
        return consume response  // `Response` says why
    }

    public func refusal(for request: Request) -> Response? {
        if let (route, _) = match(request.path) {
            return route.action(for: request.method) == nil ? methodNotAllowed(request, allowed: route.allowed) : nil
        }
        switch resolve(request) {
        case .answered(let response) where response.status.code >= 400: return response
        default: return nil
        }
    }

    private enum Resolution {
        case route(Action, Request, pattern: String)
        case answered(Response)
    }

    /// The route for `request`, which is moved into the resolution (each
    /// copy of a request retains its strings and arrays).
    private func resolve(_ request: consuming Request) -> Resolution {
        if let (route, parameters) = match(request.path) {
            guard let action = route.action(for: request.method) else {
                return .answered(Self.labelled(methodNotAllowed(request, allowed: route.allowed), route.pattern))
            }
            return .route(action, Self.routed(request, parameters), pattern: route.pattern)
        }
        if let response = staticFiles?.response(for: request) {
            return .answered(Self.labelled(request.method.isRead ? response : methodNotAllowed(request, allowed: ["GET", "HEAD"]), "static"))
        }
        return .answered(errorResponder(HTTPError(.notFound, "Nothing is at \(request.path)."), request))
    }

    private func match(_ path: String) -> (Route, [String: String])? {
        if let route = exactRoutes[RoutePath(path)] { return (route, [:]) }
        // A pattern of N segments matches only a path of N slashes: the others are not tried
        // (each try cost a few hundred instructions for a static file's path).
        var bytes = path
        let slashes = bytes.withUTF8 { $0.count(where: { $0 == UInt8(ascii: "/") }) }
        for (pattern, route) in patternRoutes where pattern.segments.count == slashes {
            if let parameters = pattern.match(path) { return (route, parameters) }
        }
        return nil
    }

    private func methodNotAllowed(_ request: Request, allowed: [String]) -> Response {
        let choices = allowed.count > 1 ? allowed.dropLast().joined(separator: ", ") + " or " + allowed[allowed.count - 1] : allowed.joined()
        var response = errorResponder(HTTPError(.methodNotAllowed, "\(request.method) is not allowed here; use \(choices)."), request)
        response.headers["Allow"] = allowed.joined(separator: ", ")
        return response
    }

    private func answering(_ request: Request, _ body: () throws -> Response) -> Response {
        do { return try body() } catch { return errorResponse(error, for: request) }
    }

    public func errorResponse(_ error: HTTPError, for request: Request) -> Response {
        Self.errorResponse(error, for: request, answeredBy: errorResponder, logger: logger, showingCause: showsErrorCauses)
    }

    /// An `HTTPError` is answered as itself; anything else is logged and hidden behind a 500.
    func errorResponse(_ error: any Error, for request: Request) -> Response {
        Self.errorResponse(error, for: request, answeredBy: errorResponder, logger: logger, showingCause: showsErrorCauses)
    }

    private static func errorResponse(
        _ error: any Error, for request: Request, answeredBy errorResponder: (HTTPError, Request) -> Response, logger: Logger,
        showingCause: Bool
    ) -> Response {
        if let error = error as? HTTPError {
            var response = errorResponder(error, request)
            for (name, value) in error.headers { response.headers[name] = value }
            return response
        }
        let cause = "\(request.method) \(request.path): \(String(reflecting: error))"
        logger.error(cause)
        let message = showingCause ? "The server failed to answer \(cause)" : "The server failed to answer; the error is logged."
        return errorResponder(HTTPError(.internalServerError, message), request)
    }
}

/// A route's path as a dictionary key, hashed by `QuickHash` (every request
/// looks one up), and so compared by its bytes.
private struct RoutePath: Hashable {
    let path: String

    init(_ path: String) { self.path = path }

    static func == (a: RoutePath, b: RoutePath) -> Bool { QuickHash.sameBytes(a.path, b.path) }

    func hash(into hasher: inout Hasher) {
        var quick = QuickHash()
        quick.add(path)
        hasher.combine(quick.value)
    }
}
