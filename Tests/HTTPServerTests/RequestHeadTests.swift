import HTTPServer
import SectionalTesting
import Testing

/// Request heads that libmicrohttpd 0.9.75 lets through or reads two ways,
/// over a real socket: each gets exactly one clean answer, and the
/// connection closes where it could otherwise be desynchronised.
@Suite(.timeLimit(.minutes(1))) struct RequestHeadTests {
    static let follower = "GET /echo?v=follower HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    /// Sends `bytes` (and a well-formed request after them) on one
    /// connection and returns everything the server sent until it closed.
    func everythingSent(for bytes: String, configuration: ServerConfiguration = .forTests()) async throws -> String {
        try await withLiveServer(LiveRoutes.router(), configuration: configuration) { server in
            try await onOwnThread { [port = server.port] in
                // Every head here ends in a close, in milliseconds; the bound is only for a server that never
                // closes, and 5 s was once too short for a machine busy with the whole suite.
                let client = try RawHTTPClient(port: port, timeout: .seconds(20))
                try client.send(bytes + Self.follower)
                return client.readUntilClosed()
            }
        }
    }

    /// The status of each response head in `received`, in order, wherever
    /// it starts: a head written twice shows as two.
    func statuses(_ received: String) -> [Int] {
        received.matches(of: #/HTTP/1\.[01] (\d{3}) [A-Z]/#).compactMap { Int($0.output.1) }
    }

    @Test(
        "A declared length past any limit, up to 2^64 - 1, is one 413 and a close",
        arguments: ["9223372036854775807", "9223372036854775808", "18446744073709551614", "18446744073709551615", "65537"])
    func hugeContentLength(length: String) async throws {
        let received = try await everythingSent(for: "POST /upload HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(length)\r\n\r\n")
        #expect(statuses(received) == [413], "\(received.prefix(200))")
        #expect(!received.contains("follower"), "the next request was not read as body, nor answered")
    }

    @Test(
        "A body on GET or HEAD, chunked or not, is refused before it is read",
        arguments: [
            "Content-Length: 5\r\n\r\nhello", "Transfer-Encoding: chunked\r\n\r\n1000000000\r\n", "Transfer-Encoding: chunked\n\n5\nhello\n0\n\n",
        ])
    func bodyOnARead(framing: String) async throws {
        for method in ["GET", "HEAD"] {
            let received = try await everythingSent(for: "\(method) /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\(framing)")
            #expect(statuses(received) == [400], "\(method) \(framing.debugDescription): \(received.prefix(200))")
        }
    }

    @Test(
        "A target with a space, a bare CR or a control byte is one 400 and a close",
        arguments: [
            "GET /feed/sections/alerts x HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "GET /hello HTTP/1.1\rHost: localhost\r\r",
            "GET /hel\tlo HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "GET /hello\u{7F} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        ])
    func looseRequestLine(request: String) async throws {
        let received = try await everythingSent(for: request)
        #expect(statuses(received) == [400], "\(request.debugDescription): \(received.prefix(300))")
        #expect(!received.contains("follower"))
    }

    @Test("HTTP/1.0 has no transfer codings: a chunked 1.0 request is refused before its body")
    func chunkedOnHTTP10() async throws {
        let received = try await everythingSent(for: "POST /upload HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")
        #expect(statuses(received) == [400], "\(received.prefix(200))")
        #expect(!received.contains("stored"))
    }

    @Test("HTTP/1.1 needs exactly one Host; HTTP/1.0 may go without")
    func hostFields() async throws {
        let none = try await everythingSent(for: "GET /hello HTTP/1.1\r\n\r\n")
        #expect(statuses(none) == [400])
        let two = try await everythingSent(for: "GET /hello HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n")
        #expect(statuses(two) == [400])
        let malformed = try await everythingSent(for: "GET /hello HTTP/1.1\r\nHost: a/b@c\r\n\r\n")
        #expect(statuses(malformed) == [400])
        let old = try await everythingSent(for: "GET /hello HTTP/1.0\r\n\r\n")
        #expect(statuses(old) == [200])
    }

    @Test("An absolute-form target is answered as its path and query")
    func absoluteForm() async throws {
        let received = try await everythingSent(
            for: "GET http://localhost:8080/echo?v=absolute HTTP/1.1\r\nHost: localhost\r\n\r\n"
                + "GET HTTPS://localhost/hello HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
        #expect(statuses(received) == [200, 200], "\(received)")
        #expect(received.contains("absolute") && received.contains("hello, world"))
        let hostless = try await everythingSent(for: "GET http:///hello HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(statuses(hostless) == [400])
    }

    @Test("Expect: 100-continue on a request that will be refused gets the refusal, not 100 first")
    func expectContinue() async throws {
        let onRead = try await everythingSent(for: "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(statuses(onRead) == [400], "\(onRead.prefix(120))")
        let wrongMethod = try await everythingSent(for: "PUT /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(statuses(wrongMethod) == [405])
        #expect(wrongMethod.contains("Allow: GET, HEAD"))
        let nowhere = try await everythingSent(for: "POST /nowhere HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        #expect(statuses(nowhere) == [404])
        let unknown = try await everythingSent(for: "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: a-miracle\r\n\r\n")
        #expect(statuses(unknown) == [417])
    }
}
