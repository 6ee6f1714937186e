import HTTPServer
import SectionalTesting
import Testing

/// Errors that reach the server from its responder, over a real socket.
@Suite(.timeLimit(.minutes(1))) struct LiveErrorMappingTests {
    @Test func thrownHTTPErrorIsAnsweredWithItsStatusAndMessage() async throws {
        let log = LogCollector()
        let responder = ThrowingResponder(error: HTTPError(.badRequest, "The date '2026-02-30' is not a day."))
        try await withLiveServer(responder, logger: log.logger) { server in
            let port = server.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request("/day?date=2026-02-30") }
            #expect(response.status == 400)
            #expect(response.text == "The date '2026-02-30' is not a day.\n")
        }
        #expect(log.lines.isEmpty)
    }

    @Test func otherErrorIsA500WhoseDetailsGoOnlyToTheLog() async throws {
        let log = LogCollector()
        try await withLiveServer(ThrowingResponder(error: DatabaseFailure()), logger: log.logger) { server in
            let port = server.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request("/feed") }
            #expect(response.status == 500)
            #expect(!response.text.isEmpty)
            #expect(!response.text.contains("hunter2"))
            #expect(!response.text.contains("DatabaseFailure"))
        }
        let line = try #require(log.lines.first)
        #expect(line.contains("hunter2@db.internal"))
        #expect(line.contains("/feed"))
    }

    @Test func routerErrorIsA500OverTheWireToo() async throws {
        let log = LogCollector()
        var router = Router(logger: log.logger)
        router.get("/fails") { _ -> String in
            try await Task.sleep(for: .milliseconds(1))
            throw DatabaseFailure()
        }
        try await withLiveServer(router) { server in
            let port = server.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request("/fails") }
            #expect(response.status == 500)
            #expect(!response.text.contains("hunter2"))
        }
        #expect(log.lines.count == 1)
        #expect(log.lines.first?.contains("hunter2") == true)
    }
}
