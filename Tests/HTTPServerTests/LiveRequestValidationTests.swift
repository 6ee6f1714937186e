import HTTPServer
import SectionalTesting
import Testing

/// What the server refuses before or around the responder, over a real socket.
@Suite(.timeLimit(.minutes(1))) struct LiveRequestValidationTests {
    @Test func getWithABodyIsABadRequest() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let responses = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                return [
                    try client.request("GET", "/hello", body: "hello"),
                    try RawHTTPClient(port: port).request("GET", "/echo?v=1", body: "x=1"),
                ]
            }
            for response in responses {
                #expect(response.status == 400)
                #expect(response.text.contains("carries no body"))
            }
        }
    }

    @Test(arguments: [("POST", "a=1"), ("POST", nil), ("PUT", "{}"), ("DELETE", nil)] as [(String, String?)])
    func otherMethodsAreNotAllowed(method: String, body: String?) async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let response = try await onOwnThread {
                try RawHTTPClient(port: port).request(method, "/hello", body: body)
            }
            #expect(response.status == 405)
            #expect(response.header("Allow") == "GET, HEAD")
        }
    }

    @Test func bodyOverTheLimitIsTooLarge() async throws {
        var configuration = ServerConfiguration.forTests()
        configuration.requestBodyLimit = 1024
        try await withLiveServer(LiveRoutes.router(), configuration: configuration) { server in
            let port = server.port
            let response = try await onOwnThread {
                try RawHTTPClient(port: port).request("POST", "/hello", body: String(repeating: "x", count: 4096))
            }
            #expect(response.status == 413)
        }
    }

    @Test("A request head past the connection's buffer gets 431; one within it is served")
    func headOverTheBufferIsTooLarge() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let (large, fits) = try await onOwnThread {
                let cookie = { (size: Int) in "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: c=\(String(repeating: "x", count: size))\r\n\r\n" }
                let large = try RawHTTPClient(port: port)
                try large.send(cookie(40 * 1024))
                let fits = try RawHTTPClient(port: port)
                try fits.send(cookie(16 * 1024))
                return (try large.readResponse(), try fits.readResponse())
            }
            #expect(large.status == 431)
            #expect(fits.status == 200)
        }
    }

    @Test func chunkedBodyOnGetIsABadRequest() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let response = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                try client.send(
                    "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "5\r\nhello\r\n0\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response.status == 400)
        }
    }

    @Test func chunkedBodyOverTheLimitIsCutOff() async throws {
        var configuration = ServerConfiguration.forTests()
        configuration.requestBodyLimit = 1024
        let log = LogCollector()
        var router = Router(logger: log.logger)
        router.on(.post, "/upload") { _ in "stored" }
        try await withLiveServer(router, configuration: configuration) { server in
            let port = server.port
            let outcome = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                let chunk = String(repeating: "x", count: 4096)
                try client.send(
                    "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                        + "1000\r\n\(chunk)\r\n0\r\n\r\n")
                return Result { try client.readResponse() }.map(\.status)
            }
            // Too late for an answer once the body is arriving: the server
            // closes the connection rather than read on without bound.
            #expect(throws: RawHTTPClient.Failure.self) { try outcome.get() }
        }
    }

    @Test(arguments: ["/echo?v=%zz", "/echo?v=%4", "/echo?v=%ff", "/%zz", "/caf%E9"])
    func malformedEncodingIsABadRequest(target: String) async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request(target) }
            #expect(response.status == 400)
        }
    }

    @Test func queryReachesAnAsyncRouteDecoded() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let response = try await onOwnThread {
                try RawHTTPClient(port: port).request("/echo?other=1&v=caf%C3%A9+au+lait&v=second")
            }
            #expect(response.status == 200)
            #expect(response.text == "café au lait")
        }
    }
}
