import HTTPServer
import SectionalTesting
import Testing

/// Static files over a real socket: the bytes, their tag, 304, and 404 for
/// every way of reaching outside the public directory.
@Suite(.timeLimit(.minutes(1))) struct LiveStaticFilesTests {
    let site: TemporarySite
    let router: Router

    init() throws {
        site = try TemporarySite()
        router = LiveRoutes.router(staticFiles: try StaticFiles(directory: site.publicDirectory))
    }

    @Test func fileThenNotModifiedOnTheSameConnection() async throws {
        try await withLiveServer(router) { server in
            let port = server.port
            let (first, revalidated, head, next) = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                let first = try client.request("/styles.css")
                let etag = first.header("ETag") ?? "missing"
                let revalidated = try client.request("/styles.css", headers: ["If-None-Match: \(etag)"])
                let head = try client.request("HEAD", "/styles.css")
                let next = try client.request("/index.html")
                return (first, revalidated, head, next)
            }
            #expect(first.status == 200)
            #expect(first.text == TemporarySite.styles)
            #expect(first.header("Content-Type") == "text/css; charset=utf-8")
            #expect(first.header("Content-Length") == String(TemporarySite.styles.utf8.count))
            let etag = try #require(first.header("ETag"))

            #expect(revalidated.status == 304)
            #expect(revalidated.header("ETag") == etag)
            #expect(revalidated.body.isEmpty)

            #expect(head.status == 200)
            #expect(head.header("ETag") == etag)
            #expect(head.header("Content-Length") == first.header("Content-Length"))

            #expect(next.status == 200)
            #expect(next.text == TemporarySite.page)
        }
    }

    @Test("A middleware's field goes out with a file held in memory, its answer built once for resending, every time")
    func middlewareFieldOnAFileHeldInMemory() async throws {
        var router = router
        router.use(StrictTransport())
        try await withLiveServer(router) { server in
            let port = server.port
            let answers = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                return try (0..<3).map { _ in try client.request("/styles.css") }
            }
            for answer in answers {
                #expect(answer.status == 200 && answer.text == TemporarySite.styles)
                #expect(answer.header("Strict-Transport-Security") == "max-age=31536000")
            }
        }
    }

    /// Written as they go on the request line: libmicrohttpd hands the target
    /// over undecoded, and the server decodes it.
    static let traversals = [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/%2E%2E/secret.txt",
        "/sub/../../secret.txt",
        "/sub/%2e%2e/%2e%2e/secret.txt",
        "/./index.html",
        "/sub/./page.html",
        "/%2F..%2Fsecret.txt",
        "/sub%2F..%2F..%2Fsecret.txt",
        "/index.html%00.png",
        "/%00",
        "/..\\secret.txt",
        "/%5c..%5csecret.txt",
        "/leak.txt",
        "/outside/secret.txt",
        "/sub",
        "/sub/",
    ]

    @Test(arguments: traversals)
    func traversalIsNotFoundOverTheWire(target: String) async throws {
        try await withLiveServer(router) { server in
            let port = server.port
            let (attempt, control) = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                return (try client.request(target), try RawHTTPClient(port: port).request("/index.html"))
            }
            #expect(attempt.status == 404)
            #expect(!attempt.text.contains("TOP SECRET"))
            #expect(!attempt.text.contains("<title>index"))
            // The same server does serve what lies inside.
            #expect(control.status == 200)
        }
    }
}

/// Adds a field to every answer, as the `Middleware` documentation's example does.
private struct StrictTransport: Middleware {
    func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
        next(request).map { response in
            var response = response
            response.headers["Strict-Transport-Security"] = "max-age=31536000"
            return response
        }
    }
}
