import HTTPServer
import SectionalTesting
import Synchronization
import Testing

/// Middleware as a router runs it: in the order added, around every route,
/// able to answer itself, to pass a value on, and to change what comes back,
/// without sending an answer that needs no waiting through a task.
@Suite struct MiddlewareTests {
    /// Appends its name to `X-Passed` on the way in and to `X-Returned` on the way back.
    struct Marking: Middleware {
        let name: String

        func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
            var request = request
            request.headers["X-Passed"] = (request.headers["X-Passed"].map { $0 + "," } ?? "") + name
            return next(request).map { [name] response in
                var response = response
                response.headers["X-Returned"] = (response.headers["X-Returned"].map { $0 + "," } ?? "") + name
                return response
            }
        }
    }

    enum Tenant: RequestValueKey { typealias Value = String }

    /// Puts the tenant the `Host` names on the request.
    struct TenantFromHost: Middleware {
        func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
            var request = request
            request[Tenant.self] = request.headers["Host"]?.split(separator: ".").first.map(String.init)
            return next(request)
        }
    }

    /// Refuses what has no `X-Key`; counts what it lets through.
    struct KeyRequired: Middleware {
        let passed = Counter()

        func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
            guard request.headers["X-Key"] == "open sesame" else { throw HTTPError(.unauthorized, "Say the word.") }
            passed.add()
            return next(request)
        }
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    static func router(_ middlewares: [any Middleware], routeRuns: Counter = Counter()) -> Router {
        var router = Router(logger: LogCollector().logger)
        router.errorResponder = { error, _ in Response(status: error.status, contentType: "text/plain", body: "refused: \(error.message)") }
        router.get("/waits") { request in
            routeRuns.add()
            return "waited for \(request.headers["X-Passed"] ?? "nobody")"
        }
        router.getSynchronously("/now") { request in
            routeRuns.add()
            return "tenant \(request[Tenant.self] ?? "none")"
        }
        for middleware in middlewares { router.use(middleware) }
        return router
    }

    @Test func middlewareRunsInTheOrderAddedAroundTheRouteAndItsAnswer() async throws {
        let router = Self.router([Marking(name: "outer"), Marking(name: "inner")])
        let response = try await router.respond(to: Request(method: .get, target: "/waits"))
        #expect(response.bodyText == "waited for outer,inner")
        #expect(response.headers["X-Returned"] == "inner,outer")
    }

    @Test func aValuePutOnTheRequestReachesTheRouteByItsKey() async throws {
        let router = Self.router([TenantFromHost()])
        let response = try await router.respond(to: Request(method: .get, target: "/now", headers: ["Host": "acme.example.com"]))
        #expect(response.bodyText == "tenant acme")
        #expect(Request(method: .get, path: "/")[Tenant.self] == nil)
    }

    @Test func anAnswerReadyAtOnceStaysReadyAtOnce() throws {
        let router = Self.router([Marking(name: "only")])
        guard case .now(let response) = router.reply(to: try Request(method: .get, target: "/now")) else {
            Issue.record("a synchronous route behind a synchronous middleware was sent to a task")
            return
        }
        #expect(response.headers["X-Returned"] == "only")
    }

    @Test func aMiddlewareThatAnswersItselfKeepsTheRouteFromRunning() async throws {
        let runs = Counter()
        let guarding = KeyRequired()
        let router = Self.router([Marking(name: "outer"), guarding], routeRuns: runs)
        let refused = try await router.respond(to: Request(method: .get, target: "/waits"))
        #expect(refused.status == .unauthorized)
        #expect(refused.bodyText == "refused: Say the word.")
        #expect(refused.route == "middleware", "the access log and metrics name who answered")
        // The middleware before it sees the refusal as an answer like any other.
        #expect(refused.headers["X-Returned"] == "outer")
        #expect(runs.value == 0 && guarding.passed.value == 0)

        let admitted = try await router.respond(to: Request(method: .get, target: "/waits", headers: ["X-Key": "open sesame"]))
        #expect(admitted.status == .ok)
        #expect(runs.value == 1 && guarding.passed.value == 1)
    }

    /// Waits before it decides, and refuses after waiting: its error is answered as the router answers errors.
    struct WaitsThenRefuses: Middleware {
        func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
            .later {
                await Task.yield()
                if request.path == "/now" { throw HTTPError(.forbidden, "Not today.") }
                return try await next(request).response()
            }
        }
    }

    @Test func workThatWaitsInAMiddlewareMayAnswerOrPassOn() async throws {
        let router = Self.router([Marking(name: "outer"), WaitsThenRefuses()])
        let refused = try await router.respond(to: Request(method: .get, target: "/now"))
        #expect(refused.status == .forbidden)
        #expect(refused.bodyText == "refused: Not today.")
        #expect(refused.headers["X-Returned"] == "outer")
        let passed = try await router.respond(to: Request(method: .get, target: "/waits"))
        #expect(passed.bodyText == "waited for outer")
    }

    /// Sees posts only, and counts them.
    struct PostsOnly: Middleware {
        let seen = Counter()
        func handles(_ request: Request) -> Bool { request.method == .post }
        func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
            seen.add()
            return next(request)
        }
    }

    @Test func aRequestAMiddlewareDoesNotHandlePassesItBy() async throws {
        let posts = PostsOnly()
        var router = Self.router([Marking(name: "outer"), posts, Marking(name: "inner")])
        router.on(.post, "/waits") { _ in "posted" }
        let read = try await router.respond(to: Request(method: .get, target: "/waits"))
        #expect(read.bodyText == "waited for outer,inner")
        #expect(posts.seen.value == 0)
        let posted = try await router.respond(to: Request(method: .post, target: "/waits"))
        #expect(posted.bodyText == "posted")
        #expect(posted.headers["X-Returned"] == "inner,outer")
        #expect(posts.seen.value == 1)
    }

    @Test func middlewareSeesWhatNoRouteClaims() async throws {
        let router = Self.router([Marking(name: "outer")])
        let missing = try await router.respond(to: Request(method: .get, target: "/nowhere"))
        #expect(missing.status == .notFound)
        #expect(missing.headers["X-Returned"] == "outer")
    }

    @Test(.timeLimit(.minutes(1))) func aServedRequestGoesThroughTheMiddleware() async throws {
        try await withLiveServer(Self.router([Marking(name: "served")])) { server in
            let port = server.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request("/waits") }
            #expect(response.status == 200)
            #expect(response.header("X-Returned") == "served")
            #expect(response.text == "waited for served")
        }
    }
}
