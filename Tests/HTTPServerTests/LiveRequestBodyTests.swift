import HTTPServer
import SectionalTesting
import Testing

/// Request bodies reach handlers whole, however they arrive, and forms decode.
@Suite(.timeLimit(.minutes(1))) struct LiveRequestBodyTests {
    static func echoRouter() -> Router {
        var router = Router(logger: LogCollector().logger)
        router.on(.post, "/echo") { request in "\(request.body.count):" + String(decoding: request.body, as: UTF8.self) }
        router.on(.post, "/form") { request in
            try request.formFields().map { "\($0.name)=\($0.value)" }.joined(separator: "|")
        }
        return router
    }

    @Test("A body sent with Content-Length, larger than one read, arrives byte for byte")
    func contentLength() async throws {
        let body = String((0..<20_000).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) })
        try await withLiveServer(Self.echoRouter()) { server in
            let port = server.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request("POST", "/echo", body: body) }
            #expect(response.status == 200)
            #expect(response.text == "20000:" + body)
        }
    }

    @Test("A chunked body arrives joined; the connection then serves the next request")
    func chunked() async throws {
        try await withLiveServer(Self.echoRouter()) { server in
            let port = server.port
            let (first, second) = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                try client.send("POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
                return (try client.readResponse(), try client.request("POST", "/echo", body: "again"))
            }
            #expect(first.text == "11:hello world")
            #expect(second.text == "5:again")
        }
    }

    @Test("A form body decodes as a browser encodes it; other content types are 415")
    func forms() async throws {
        try await withTestClient(Self.echoRouter(), .live) { client in
            let form = try await client.post("/form", form: [("name", "Tom & Jerry's"), ("note", "a+b=c ✓"), ("name", "")])
            #expect(form.status == .ok)
            #expect(form.bodyText == "name=Tom & Jerry's|note=a+b=c ✓|name=")
            let json = try await client.execute(.post, "/form", headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
            #expect(json.status == .unsupportedMediaType)
            let charset = try await client.execute(
                .post, "/form", headers: ["Content-Type": "Application/X-WWW-Form-Urlencoded; charset=UTF-8"], body: Array("a=%41".utf8))
            #expect(charset.bodyText == "a=A")
            let malformed = try await client.execute(
                .post, "/form", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array("a=%4".utf8))
            #expect(malformed.status == .badRequest)
        }
    }
}
