/// Routes GET and HEAD requests by path to handlers; serves static files for
/// paths no route claims; answers 404 and 405 itself.
///
/// ```swift
/// var router = Router()
/// router.get("/hello/{name}") { request in "hello \(request.parameters["name"]!)" }
/// ```
public struct Router: Responder {
    public typealias Handler = @Sendable (Request) async throws -> Response
    public typealias ImmediateHandler = @Sendable (Request) throws -> Response

    enum Action: Sendable {
        case async(Handler)
        case immediate(ImmediateHandler)
    }

    private var exactRoutes: [String: Action] = [:]
    private var patternRoutes: [(pattern: RoutePattern, action: Action)] = []
    /// Serves what no route claims; `nil` serves no files.
    public var staticFiles: StaticFiles?
    /// Renders every error answer (404, 405, a thrown `HTTPError`, the 500
    /// that stands for any other error). The default sends the message as text.
    public var errorResponder: @Sendable (HTTPError, Request) -> Response = { error, _ in error.response() }
    public var logger: Logger

    public init(staticFiles: StaticFiles? = nil, logger: Logger = .standardError) {
        self.staticFiles = staticFiles
        self.logger = logger
    }

    /// Adds a route answered by an async handler. `pattern` segments written
    /// `{name}` match any one segment and appear in `request.parameters`.
    public mutating func get<Result: ResponseConvertible>(
        _ pattern: String, _ handler: @escaping @Sendable (Request) async throws -> Result
    ) {
        add(pattern, .async { request in try await handler(request).response() })
    }

    /// Adds a route whose answer is ready without waiting; the server answers
    /// it on its own thread, skipping the hop to a task.
    public mutating func getImmediately<Result: ResponseConvertible>(
        _ pattern: String, _ handler: @escaping @Sendable (Request) throws -> Result
    ) {
        add(pattern, .immediate { request in try handler(request).response() })
    }

    private mutating func add(_ pattern: String, _ action: Action) {
        let parsed = RoutePattern(pattern)
        if parsed.isLiteral {
            exactRoutes[pattern] = action
        } else {
            patternRoutes.append((parsed, action))
        }
    }

    public func respondImmediately(to request: Request) -> Response? {
        switch resolve(request) {
        case .route(.immediate(let handler), let routed):
            return answer(routed) { try handler(routed) }
        case .route(.async, _):
            return nil
        case .answered(let response):
            return response
        }
    }

    public func respond(to request: Request) async -> Response {
        switch resolve(request) {
        case .route(.immediate(let handler), let routed):
            return answer(routed) { try handler(routed) }
        case .route(.async(let handler), let routed):
            do {
                return try await handler(routed)
            } catch {
                return errorResponse(error, for: routed)
            }
        case .answered(let response):
            return response
        }
    }

    private enum Resolution {
        case route(Action, Request)
        case answered(Response)
    }

    private func resolve(_ request: Request) -> Resolution {
        if let (action, parameters) = match(request.path) {
            guard request.method.isRead else { return .answered(methodNotAllowed(request)) }
            var routed = request
            routed.parameters = parameters
            return .route(action, routed)
        }
        if let response = staticFiles?.response(for: request) {
            return .answered(request.method.isRead ? response : methodNotAllowed(request))
        }
        return .answered(errorResponder(HTTPError(.notFound, "Nothing is at \(request.path)."), request))
    }

    private func match(_ path: String) -> (Action, [String: String])? {
        if let action = exactRoutes[path] { return (action, [:]) }
        for (pattern, action) in patternRoutes {
            if let parameters = pattern.match(path) { return (action, parameters) }
        }
        return nil
    }

    private func methodNotAllowed(_ request: Request) -> Response {
        let error = HTTPError(.methodNotAllowed, "\(request.method) is not allowed here; use GET or HEAD.")
        var response = errorResponder(error, request)
        response.headers["Allow"] = "GET, HEAD"
        return response
    }

    private func answer(_ request: Request, _ body: () throws -> Response) -> Response {
        do { return try body() } catch { return errorResponse(error, for: request) }
    }

    /// An `HTTPError` is answered as itself; anything else is logged and hidden behind a 500.
    func errorResponse(_ error: any Error, for request: Request) -> Response {
        if let error = error as? HTTPError { return errorResponder(error, request) }
        logger.log("error: \(request.method) \(request.path): \(String(reflecting: error))")
        return errorResponder(HTTPError(.internalServerError, "The server failed to answer; the error is logged."), request)
    }
}
