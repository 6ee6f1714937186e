import HTTPServer
import SectionalTesting
import Testing

/// Routing decided in-process: which handler answers, with which parameters,
/// and what the router answers itself (404, 405).
@Suite struct RouterTests {
    /// A router with one exact route, two parameter routes and one route
    /// whose answer is ready at once.
    static func makeRouter() -> Router {
        var router = Router(logger: LogCollector().logger)
        router.get("/feed") { _ in "feed" }
        router.get("/feed/sections/{id}") { request in "section \(request.parameters["id"] ?? "?")" }
        router.get("/feed/sections/new") { _ in "the new-section form" }
        router.get("/users/{user}/posts/{post}") { request in
            "\(request.parameters["user"] ?? "?")/\(request.parameters["post"] ?? "?")"
        }
        router.getSynchronously("/healthz") { _ in "ok" }
        return router
    }

    static func get(_ target: String, method: HTTPMethod = .get, router: Router = makeRouter()) async throws -> Response {
        try await router.respond(to: Request(method: method, target: target))
    }

    @Test func exactRouteAnswersWithItsHandler() async throws {
        let response = try await Self.get("/feed")
        #expect(response.status == .ok)
        #expect(response.bodyText == "feed")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
    }

    @Test(arguments: [
        ("/feed/sections/balances", "section balances"),
        ("/feed/sections/credit-score", "section credit-score"),
        ("/feed/sections/cr%C3%A9dit", "section crédit"),
        ("/users/ada/posts/42", "ada/42"),
    ])
    func parameterSegmentsReachTheHandler(target: String, expected: String) async throws {
        let response = try await Self.get(target)
        #expect(response.status == .ok)
        #expect(response.bodyText == expected)
    }

    @Test func anExactRouteMatchesItsOwnBytesOnly() async throws {
        var router = Router(logger: LogCollector().logger)
        router.get("/caf\u{E9}") { _ in "café" }
        #expect(try await Self.get("/caf%C3%A9", router: router).bodyText == "café")
        // The same letter written as e and a combining accent is another path.
        #expect(try await Self.get("/cafe%CC%81", router: router).status == .notFound)
    }

    @Test func exactRouteWinsOverAParameterRouteRegisteredFirst() async throws {
        #expect(try await Self.get("/feed/sections/new").bodyText == "the new-section form")
    }

    @Test(arguments: [
        "/nowhere",
        "/feed/",
        "/Feed",
        "/feed/sections",
        "/feed/sections/",
        "/feed/sections/a/b",
        "/users/ada/posts/",
        "//feed",
    ])
    func pathsNoRouteClaimsAreNotFound(target: String) async throws {
        let response = try await Self.get(target)
        #expect(response.status == .notFound)
        #expect(response.bodyText.contains("Nothing is at"))
    }

    @Test(arguments: [HTTPMethod.post, .put, .delete, .options, HTTPMethod(rawValue: "PATCH")])
    func otherMethodsOnARouteAreNotAllowed(method: HTTPMethod) async throws {
        for target in ["/feed", "/feed/sections/balances", "/healthz"] {
            let response = try await Self.get(target, method: method)
            #expect(response.status == .methodNotAllowed, "\(method) \(target)")
            #expect(response.headers["Allow"] == "GET, HEAD", "\(method) \(target)")
        }
    }

    @Test(arguments: ["/feed", "/feed/sections/alerts", "/healthz", "/nowhere"])
    func headIsAnsweredLikeGet(target: String) async throws {
        let get = try await Self.get(target, method: .get)
        let head = try await Self.get(target, method: .head)
        #expect(head.status == get.status)
        #expect(head.headers.lines == get.headers.lines)
        #expect(head.body.count == get.body.count)
    }

    @Test func immediateRoutesAnswerWithoutTheAsyncPath() throws {
        let router = Self.makeRouter()
        let health = try #require(router.respondSynchronously(to: Request(method: .get, target: "/healthz")))
        #expect(health.bodyText == "ok")
        let missing = try #require(router.respondSynchronously(to: Request(method: .get, target: "/nowhere")))
        #expect(missing.status == .notFound)
        // An async route must be left to `respond(to:)`.
        #expect(router.respondSynchronously(to: try Request(method: .get, target: "/feed")) == nil)
    }

    /// A route that answers at once or later as `mode` says, and refuses now or in its task.
    static func replyingRouter() -> Router {
        var router = Router(logger: LogCollector().logger)
        router.errorResponder = { error, _ in
            Response(status: error.status, contentType: "text/plain; charset=utf-8", body: "site error: \(error.message)")
        }
        router.on(
            .get, "/page/{mode}",
            replying: { request in
                switch request.parameters["mode"] {
                case "ready": return .now("ready at once".response())
                case "waits": return .later { "after waiting".response() }
                case "refused": throw HTTPError(.badRequest, "refused at once")
                default: return .later { throw HTTPError(.forbidden, "refused in the task") }
                }
            })
        return router
    }

    @Test func aReplyingRouteIsAnsweredAtOnceWhenItsHandlerSaysNow() throws {
        let router = Self.replyingRouter()
        for method in [HTTPMethod.get, .head] {
            guard case .now(let response) = router.reply(to: try Request(method: method, target: "/page/ready")) else {
                Issue.record("\(method) /page/ready was left for a task")
                continue
            }
            #expect(response.bodyText == "ready at once")
            #expect(response.route == "/page/{mode}", "labelled with its route, for metrics and the log")
        }
    }

    @Test func aReplyingRoutesWorkRunsLaterAndIsLabelledToo() async throws {
        guard case .later(let work) = Self.replyingRouter().reply(to: try Request(method: .get, target: "/page/waits")) else {
            Issue.record("/page/waits was answered without its work")
            return
        }
        let response = try await work()
        #expect(response.bodyText == "after waiting")
        #expect(response.route == "/page/{mode}")
    }

    @Test(arguments: [("/page/refused", HTTPStatus.badRequest, "refused at once"), ("/page/later", .forbidden, "refused in the task")])
    func aReplyingRoutesErrorsAreAnsweredTheSitesWay(target: String, status: HTTPStatus, message: String) async throws {
        let response = await Self.replyingRouter().respond(to: try Request(method: .get, target: target))
        #expect(response.status == status)
        #expect(response.bodyText == "site error: \(message)")
        #expect(response.route == "/page/{mode}")
    }

    @Test func routeSeesTheDecodedQuery() async throws {
        var router = Router(logger: LogCollector().logger)
        router.get("/search") { request in request.queryValues("q").joined(separator: "|") }
        let response = try await Self.get("/search?q=a+b&q=c%26d", router: router)
        #expect(response.bodyText == "a b|c&d")
    }
}
