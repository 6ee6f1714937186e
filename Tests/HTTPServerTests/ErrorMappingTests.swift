import HTTPServer
import SectionalTesting
import Testing

/// What a handler's thrown error turns into: an `HTTPError` is answered as
/// itself; anything else is a 500 that hides its details and logs them.
@Suite struct ErrorMappingTests {
    static func router(log: LogCollector, throwing error: any Error & Sendable) -> Router {
        var router = Router(logger: log.logger)
        router.get("/async") { _ -> String in throw error }
        router.getSynchronously("/immediate") { _ -> String in throw error }
        router.get("/fine") { _ in "fine" }
        return router
    }

    @Test(
        arguments: [
            HTTPError(.badRequest, "The date '2026-13-40' is not a day."),
            HTTPError(.notFound, "No section is called 'nope'."),
            HTTPError(.contentTooLarge, "Too much."),
            HTTPError(.serviceUnavailable, "Come back later."),
        ], ["/async", "/immediate"])
    func thrownHTTPErrorIsAnsweredWithItsStatusAndMessage(error: HTTPError, path: String) async throws {
        let log = LogCollector()
        let response = await Self.router(log: log, throwing: error).respond(to: Request(method: .get, path: path))
        #expect(response.status == error.status)
        #expect(response.bodyText == error.message + "\n")
        #expect(response.headers["Content-Type"] == "text/plain; charset=utf-8")
        // A client's mistake is not the server's failure: nothing to log.
        #expect(log.lines.isEmpty)
    }

    @Test(arguments: ["/async", "/immediate"])
    func otherErrorsBecomeA500WithoutTheirDetails(path: String) async throws {
        let log = LogCollector()
        let router = Self.router(log: log, throwing: DatabaseFailure())
        let response = await router.respond(to: Request(method: .get, path: path))
        #expect(response.status == .internalServerError)
        #expect(!response.bodyText.isEmpty)
        #expect(!response.bodyText.contains("hunter2"))
        #expect(!response.bodyText.contains("db.internal"))
        #expect(!response.bodyText.contains("DatabaseFailure"))

        let line = try #require(log.lines.first)
        #expect(log.lines.count == 1)
        #expect(line.contains("DatabaseFailure"))
        #expect(line.contains("hunter2@db.internal"))
        #expect(line.contains(path))
    }

    @Test("In development a 500 says what failed and on which route; the log has it as before", arguments: ["/async", "/immediate"])
    func developmentShowsTheCause(path: String) async throws {
        let log = LogCollector()
        var router = Self.router(log: log, throwing: DatabaseFailure())
        router.showsErrorCauses = true
        let response = await router.respond(to: Request(method: .get, path: path))
        #expect(response.status == .internalServerError)
        #expect(response.bodyText.contains("GET \(path)"), "\(response.bodyText)")
        #expect(response.bodyText.contains("DatabaseFailure"))
        #expect(log.lines.count == 1)
    }

    @Test func immediateRouteErrorIsMappedOnTheImmediatePathToo() throws {
        let log = LogCollector()
        let router = Self.router(log: log, throwing: DatabaseFailure())
        let response = try #require(router.respondSynchronously(to: Request(method: .get, path: "/immediate")))
        #expect(response.status == .internalServerError)
        #expect(!response.bodyText.contains("hunter2"))
        #expect(log.lines.count == 1)
    }

    @Test func customErrorResponderRendersEveryErrorTheRouterAnswers() async throws {
        let log = LogCollector()
        var router = Self.router(log: log, throwing: DatabaseFailure())
        router.errorResponder = { error, request in
            Response(
                status: error.status, contentType: "text/html; charset=utf-8",
                body: "<p>\(error.status.code) for \(request.path)</p>")
        }
        let cases: [(Request, Int)] = [
            (Request(method: .get, path: "/nowhere"), 404),
            (Request(method: .post, path: "/fine"), 405),
            (Request(method: .get, path: "/async"), 500),
            (Request(method: .get, path: "/immediate"), 500),
        ]
        for (request, code) in cases {
            let response = await router.respond(to: request)
            #expect(response.status.code == code)
            #expect(response.bodyText == "<p>\(code) for \(request.path)</p>")
            #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        }
        // The router still adds what HTTP requires around the custom body.
        let notAllowed = await router.respond(to: Request(method: .post, path: "/fine"))
        #expect(notAllowed.headers["Allow"] == "GET, HEAD")
    }
}
