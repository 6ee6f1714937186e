import HTTPServer
import SectionalTesting
import Testing

@testable import FeedApp

@Suite("Streamed pages over a real socket", .timeLimit(.minutes(1)))
struct LiveStreamingPageTests {
    /// The app on `store`, and the `Cookie` line of a signed-in session.
    private func app(
        _ store: ControlledFeedStore, timeout: Duration = .seconds(30), log: LogCollector = LogCollector()
    ) async throws -> (Router, String) {
        let data = try AppData.memory().replacingFeed(with: store)
        let router = try buildRouter(
            publicDirectory: AppHarness.publicDirectory, data: data, settings: AppSettings(sectionTimeout: timeout), logger: log.logger)
        return (router, "Cookie: " + (try await InProcessClient(router).signIn()))
    }

    @Test("The head and the sections above a slow one arrive before it finishes")
    func firstChunkBeforeTheSlowest() async throws {
        let store = ControlledFeedStore(gated: ["credit-score"])
        let (router, cookie) = try await app(store)
        let early = try await withLiveServer(router) { server in
            try await onOwnThread { [port = server.port] () -> String in
                let client = try RawHTTPClient(port: port, timeout: .seconds(10))
                try client.send("GET /feed?sections=balances,credit-score HTTP/1.1\r\nHost: x\r\n\(cookie)\r\n\r\n")
                guard client.waitFor("Everyday Checking") else { return "" }
                let early = client.unreadText
                store.gate.open()
                _ = client.waitFor("</html>")
                return early
            }
        }
        #expect(early.contains("<main class=\"stack\" id=\"stack\">"))
        #expect(!early.contains("credit-score-title"), "credit score was sent before its load finished")
    }

    @Test("A client that leaves mid-page cancels the remaining loads, leaves nothing behind and is no error in the log, only a note at debug")
    func clientGoneMidPage() async throws {
        let store = ControlledFeedStore(gated: ["credit-score"])
        let log = LogCollector(level: .debug)
        let (router, cookie) = try await app(store, timeout: .milliseconds(500), log: log)
        try await withLiveServer(router, logger: log.logger) { server in
            let sawHead = try await onOwnThread { [port = server.port] () -> Bool in
                let client = try RawHTTPClient(port: port, timeout: .seconds(10))
                try client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\(cookie)\r\n\r\n")
                defer { client.disconnect() }
                return client.waitFor("id=\"stack\">")
            }
            #expect(sawHead)
            for _ in 0..<500 where server.requestsInFlight > 0 || store.runningLoads > 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server.requestsInFlight == 0)
            #expect(store.runningLoads == 0)
        }
        // A line is `TIME LEVEL MESSAGE`.
        let levels = log.lines.map { $0.split(separator: " ").dropFirst().first.map(String.init) ?? "" }
        #expect(!levels.contains("error"), "\(log.lines)")
        #expect(log.lines.contains { $0.contains(" debug [") && $0.contains("] GET /feed: ended before its answer was complete") }, "\(log.lines)")
    }

    @Test("The server stops gracefully with a stream in flight")
    func stopWithStreamInFlight() async throws {
        let store = ControlledFeedStore(gated: ["credit-score"])
        let configuration = ServerConfiguration.forTests(shutdownGrace: .milliseconds(300))
        let (router, cookie) = try await app(store)
        try await withLiveServer(router, configuration: configuration) { server in
            let ended = try await onOwnThread { [port = server.port] () -> Bool in
                let client = try RawHTTPClient(port: port, timeout: .seconds(10))
                try client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\(cookie)\r\n\r\n")
                guard client.waitFor("id=\"stack\">") else { return false }
                server.stop()
                return client.waitForClose()
            }
            #expect(ended)
            for _ in 0..<300 where store.runningLoads > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(store.runningLoads == 0)
        }
    }
}
