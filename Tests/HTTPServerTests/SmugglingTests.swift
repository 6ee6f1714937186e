import HTTPServer
import SectionalTesting
import Testing

/// Request smuggling and framing over a real socket: requests whose end is
/// ambiguous or malformed. Each one is sent whole, followed on the same
/// connection by two well-formed requests, the last with `Connection: close`,
/// so every read ends at a response or at the server's close, never at a
/// timeout. Each malformed request must get a 4xx or close the connection;
/// whatever follows it is answered once and in order, or not at all; and a
/// fresh connection is answered correctly afterwards.
@Suite(.timeLimit(.minutes(1))) struct SmugglingTests {
    /// Two requests that follow the malformed one on its connection.
    static let followers =
        "GET /echo?v=after HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        + "GET /echo?v=last HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

    /// What came back on the connection, in order.
    struct Exchange: Sendable {
        var responses: [RawResponse]
        /// The response the server had started when it closed, as bytes received.
        var cutOff: Int?
        var fresh: RawResponse

        var statuses: [Int] { responses.map(\.status) }
    }

    /// Sends `malformed` and the followers in one write, reads every response
    /// until the server closes, then asks a fresh connection for `/hello`.
    func exchange(_ malformed: String) async throws -> Exchange {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            return try await onOwnThread {
                let client = try RawHTTPClient(port: port, timeout: .seconds(10))
                try client.send(malformed + Self.followers)
                var responses: [RawResponse] = []
                var cutOff: Int?
                while true {
                    do {
                        responses.append(try client.readResponse())
                    } catch RawHTTPClient.Failure.closedByServer(let count) {
                        if count > 0 { cutOff = count }
                        break
                    }
                }
                let fresh = try RawHTTPClient(port: port, timeout: .seconds(10)).request("/hello")
                return Exchange(responses: responses, cutOff: cutOff, fresh: fresh)
            }
        }
    }

    /// The malformed request got a 4xx, or nothing and a close; then either the
    /// connection closed, or both followers were answered, in order, once.
    func expectRefusedAndFramed(_ exchange: Exchange, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(exchange.cutOff == nil, "a response was cut off", sourceLocation: sourceLocation)
        if let first = exchange.responses.first {
            #expect((400..<500).contains(first.status), "answered \(exchange.statuses)", sourceLocation: sourceLocation)
        }
        let rest = exchange.responses.dropFirst()
        if !rest.isEmpty {
            #expect(rest.map(\.status) == [200, 200], "answered \(exchange.statuses)", sourceLocation: sourceLocation)
            #expect(rest.map(\.text) == ["after", "last"], "followers answered out of order or twice", sourceLocation: sourceLocation)
        }
        #expect(exchange.fresh.status == 200, sourceLocation: sourceLocation)
        #expect(exchange.fresh.text == LiveRoutes.hello, sourceLocation: sourceLocation)
    }

    @Test(arguments: [
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n",
    ])
    func contentLengthWithTransferEncoding(request: String) async throws {
        let exchange = try await exchange(request)
        expectRefusedAndFramed(exchange)
        #expect(exchange.statuses == [400], "refused before the body, and closed")
    }

    @Test func twoDifferentContentLengths() async throws {
        // libmicrohttpd alone took the first (0) and answered "helloGET …" as a second request.
        let exchange = try await exchange("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\nhello")
        expectRefusedAndFramed(exchange)
        #expect(exchange.statuses == [400])
    }

    @Test func bodyOnGet() async throws {
        let exchange = try await exchange("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\nhello")
        expectRefusedAndFramed(exchange)
        #expect(exchange.statuses.first == 400)
    }

    @Test(arguments: ["zz", "-1", "0x5", "ffffffffffffffffffff"])
    func invalidChunkSize(size: String) async throws {
        let exchange = try await exchange(
            "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\nhello\r\n0\r\n\r\n")
        expectRefusedAndFramed(exchange)
        // A route that takes the body: the chunk size itself is what is refused, not the method.
        #expect(exchange.statuses.first != 405, "answered \(exchange.statuses)")
        #expect(exchange.statuses.count <= 1, "nothing after a body that cannot be framed")
    }

    @Test(arguments: [
        "GET /hello HTTP/1.1 extra\r\n\r\n", "GARBAGE\r\n\r\n", "GET /hello HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n",
        "GET /%zz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
    ])
    func pipelinedRequestAfterAMalformedOne(request: String) async throws {
        expectRefusedAndFramed(try await exchange(request))
    }

    @Test(arguments: [
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer Encoding: chunked\r\n\r\n0\r\n\r\n",
        // libmicrohttpd alone ignored this length and answered "hello" + the next request as one.
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length : 5\r\n\r\nhello",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX(y): 1\r\n\r\n",
    ])
    func headerNamesWithSpacesOrSeparators(request: String) async throws {
        let exchange = try await exchange(request)
        expectRefusedAndFramed(exchange)
        #expect(exchange.statuses == [400])
    }

    /// An obs-fold continuation (RFC 9112 §5.2) is refused: libmicrohttpd
    /// 0.9.75 joined it onto the field's *name* (`Content-Length:` + ` 5`
    /// became `Content-Length5`), framing no body where a proxy that unfolds
    /// would; at client discipline 1, libmicrohttpd 1.0.1 refuses every fold.
    @Test(arguments: [
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding:\r\n chunked\r\n\r\n0\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length:\r\n 5\r\n\r\nhello",
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n x\r\n\r\n0\r\n\r\n",
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Fold: a\r\n b c\r\n\r\n",
    ])
    func obsoleteLineFolding(request: String) async throws {
        let exchange = try await exchange(request)
        expectRefusedAndFramed(exchange)
        #expect(exchange.statuses == [400])
    }

    /// A malformed or huge Content-Length is refused by libmicrohttpd itself,
    /// before the handler runs, with one response head (0.9.75 wrote the
    /// error's head twice, the second inside the first's body); the
    /// connection closes, so nothing after it is answered.
    @Test(arguments: ["3, 3", "5, 5", "-1", "+5", "0x5", "5e0", "18446744073709551616", "99999999999999999999999"])
    func malformedContentLength(value: String) async throws {
        let exchange = try await exchange("POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(value)\r\n\r\nabc")
        let first = try #require(exchange.responses.first)
        #expect([400, 413].contains(first.status))
        #expect(!first.text.contains("HTTP/1."), "a second response head in the body: \(first.text)")
        #expect(!exchange.responses.contains { $0.text == "after" || $0.text == "last" }, "answered \(exchange.statuses)")
        #expect(exchange.fresh.status == 200)
        #expect(exchange.fresh.text == LiveRoutes.hello)
    }

    /// A bare LF is not a line end (RFC 9112 §2.2 lets a server refuse it, and
    /// the daemon's strict discipline does): a request written with bare LFs is
    /// one 400 and a close, so no two parsers can split it differently; nor
    /// can a bare LF hide a second framing field.
    @Test func bareLineFeeds() async throws {
        let plain = try await exchange("GET /echo?v=first HTTP/1.1\nHost: 127.0.0.1\n\n")
        expectRefusedAndFramed(plain)
        #expect(plain.statuses == [400])

        let hiding = try await exchange(
            "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n")
        expectRefusedAndFramed(hiding)
        #expect(hiding.statuses == [400])
    }

    @Test(arguments: ["GET /hel\0lo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", "GET /hello%00.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"])
    func nulInThePath(request: String) async throws {
        expectRefusedAndFramed(try await exchange(request))
    }

    @Test(arguments: [
        "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: a\rb\r\n\r\n",
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: identity\r\n\r\nabc",
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n",
        "POST /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ])
    func otherFramingTricks(request: String) async throws {
        let exchange = try await exchange(request)
        expectRefusedAndFramed(exchange)
        #expect(exchange.statuses.count <= 1)
    }
}
