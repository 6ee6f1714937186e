import HTTPServer
import SectionalTesting
import Testing

/// A responder of an app's own, not a `Router`, behind the server.
@Suite(.timeLimit(.minutes(1))) struct LiveResponderTests {
    /// Answers `/now` at once; anything else by `respond`, which says so.
    struct TwoPaths: Responder {
        func respondSynchronously(to request: Request) -> Response? {
            request.path == "/now" ? "at once".response() : nil
        }
        func respond(to request: Request) async throws -> Response {
            try await Task.sleep(for: .milliseconds(1))
            return "later: \(request.path)".response()
        }
    }

    @Test("The server takes an immediate answer when the responder has one, else awaits respond(to:)")
    func immediateThenLater() async throws {
        try await withLiveServer(TwoPaths()) { server in
            let port = server.port
            let (now, later) = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                return (try client.request("/now"), try client.request("/other"))
            }
            #expect(now.status == 200)
            #expect(now.text == "at once")
            #expect(later.text == "later: /other")
        }
    }

    @Test("A handler sees the client's address as text, an IPv4 client of a dual-stack listener as a.b.c.d", arguments: ["127.0.0.1", "::"])
    func clientAddress(host: String) async throws {
        var router = Router(logger: LogCollector().logger)
        router.getSynchronously("/whoami") { request in request.clientAddress ?? "unknown" }
        router.get("/whoami-later") { request in request.clientAddress ?? "unknown" }
        var configuration = ServerConfiguration.forTests()
        configuration.host = host
        try await withLiveServer(router, configuration: configuration) { server in
            let port = server.port
            let answers = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                return [try client.request("/whoami").text, try client.request("/whoami-later").text]
            }
            #expect(answers == ["127.0.0.1", "127.0.0.1"])
        }
    }

    @Test("A router answers by its route found once: an async route, an immediate one, and none")
    func routerReplies() async throws {
        var router = Router(logger: LogCollector().logger)
        router.getSynchronously("/hello") { _ in "hello" }
        router.get("/slow/{name}") { request in request.parameters["name"].map { "slow \($0)" } ?? "" }
        guard case .now(let hello) = router.reply(to: try Request(method: .get, target: "/hello")) else {
            Issue.record("an immediate route answers now")
            return
        }
        #expect(hello.bodyText == "hello")
        guard case .later(let work) = router.reply(to: try Request(method: .get, target: "/slow/sam")) else {
            Issue.record("an async route answers later")
            return
        }
        #expect(try await work().bodyText == "slow sam")
        guard case .now(let missing) = router.reply(to: try Request(method: .get, target: "/nowhere")) else {
            Issue.record("no route answers now")
            return
        }
        #expect(missing.status.code == 404)
    }
}
