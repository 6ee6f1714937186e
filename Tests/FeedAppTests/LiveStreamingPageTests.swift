import Foundation
import HTTPServer
import Testing
@testable import FeedApp

@Suite("Streamed pages over a real socket")
struct LiveStreamingPageTests {
    func start(_ store: ControlledFeedStore, timeout: Duration = .seconds(30)) throws -> Server {
        let router = try buildRouter(publicDirectory: AppHarness.publicDirectory, feedStore: store,
                                     settings: PageSettings(sectionTimeout: timeout), logger: Logger { _ in })
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.accessLog = false
        configuration.shutdownGrace = .milliseconds(300)
        return try Server.start(configuration, responder: router, logger: Logger { _ in })
    }

    @Test("The head and the sections above a slow one arrive before it finishes")
    func firstChunkBeforeTheSlowest() async throws {
        let store = ControlledFeedStore(gated: ["credit-score"])
        let server = try start(store)
        defer { server.stop() }
        let port = server.port
        let early = try await onOwnThread { () -> String in
            let client = try SocketClient(port: port)
            client.send("GET /feed?sections=balances,credit-score HTTP/1.1\r\nHost: x\r\n\r\n")
            guard client.read(until: "Everyday Checking") else { return "" }
            let early = String(decoding: client.received, as: UTF8.self)
            store.gate.open()
            _ = client.read(until: "</html>")
            return early
        }
        #expect(early.contains("<main class=\"stack\" id=\"stack\">"))
        #expect(!early.contains("credit-score-title"), "credit score was sent before its load finished")
    }

    @Test("A client that leaves mid-page cancels the remaining loads and leaves nothing behind")
    func clientGoneMidPage() async throws {
        let store = ControlledFeedStore(gated: ["credit-score"])
        let server = try start(store, timeout: .milliseconds(500))
        defer { server.stop() }
        let port = server.port
        let sawHead = try await onOwnThread { () -> Bool in
            let client = try SocketClient(port: port)
            client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
            defer { client.disconnect() }
            return client.read(until: "id=\"stack\">")
        }
        #expect(sawHead)
        for _ in 0..<500 where server.requestsInFlight > 0 || store.runningLoads > 0 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(server.requestsInFlight == 0)
        #expect(store.runningLoads == 0)
    }

    @Test("The server stops gracefully with a stream in flight")
    func stopWithStreamInFlight() async throws {
        let store = ControlledFeedStore(gated: ["credit-score"])
        let server = try start(store)
        let port = server.port
        let ended = try await onOwnThread { () -> Bool in
            let client = try SocketClient(port: port)
            client.send("GET /feed HTTP/1.1\r\nHost: x\r\n\r\n")
            guard client.read(until: "id=\"stack\">") else { return false }
            server.stop()
            return !client.read(until: "never sent")
        }
        #expect(ended)
        for _ in 0..<300 where store.runningLoads > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(store.runningLoads == 0)
    }
}
