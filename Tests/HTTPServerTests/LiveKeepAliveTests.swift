import HTTPServer
import SectionalTesting
import Testing

/// Keep-alive and HEAD over a real socket: many answers on one connection,
/// each framed exactly by its `Content-Length`.
@Suite(.timeLimit(.minutes(1))) struct LiveKeepAliveTests {
    @Test func severalRequestsShareOneConnection() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let (responses, openConnections) = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                var responses: [RawResponse] = []
                for round in 0..<5 {
                    responses.append(try client.request("/hello"))
                    responses.append(try client.request("/echo?v=round-\(round)"))
                }
                return (responses, server.openConnections)
            }
            #expect(responses.count == 10)
            for (index, response) in responses.enumerated() {
                #expect(response.status == 200)
                #expect(response.header("Connection")?.lowercased() != "close")
                let expected = index.isMultiple(of: 2) ? LiveRoutes.hello : "round-\(index / 2)"
                #expect(response.text == expected)
                #expect(response.header("Content-Length") == String(expected.utf8.count))
            }
            // Ten answers, and the server only ever held the one connection.
            #expect(openConnections == 1)
        }
    }

    @Test func headSendsTheHeadersOfGetWithoutABody() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let (get, head, asyncHead, after) = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                let get = try client.request("/hello")
                let head = try client.request("HEAD", "/hello")
                let asyncHead = try client.request("HEAD", "/echo?v=abc")
                // Were there any body bytes after a HEAD's headers, this
                // response would not start with a status line.
                let after = try client.request("/echo?v=next")
                return (get, head, asyncHead, after)
            }
            #expect(get.status == 200)
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(LiveRoutes.hello.utf8.count))
            #expect(head.header("Content-Type") == get.header("Content-Type"))
            #expect(asyncHead.status == 200)
            #expect(asyncHead.header("Content-Length") == "3")
            #expect(after.status == 200)
            #expect(after.text == "next")
        }
    }
}
