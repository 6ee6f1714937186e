import Foundation
import SectionalTesting
import Testing

@testable import HTTPServer

/// Every connection is accepted once and handed to a daemon by its first
/// request: an event stream to the streams' daemons, whose connections get a
/// small buffer, anything else to the pages'.
@Suite(.timeLimit(.minutes(1))) struct AcceptorTests {
    static func head(_ lines: String...) -> [UInt8] { Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8) }

    @Test("A complete GET head that accepts text/event-stream, in any case and among other types, opens a stream")
    func eventStreamHeads() {
        for head in [
            Self.head("GET /feed/live HTTP/1.1", "Host: x", "Accept: text/event-stream"),
            Self.head("GET /feed/live?x=1 HTTP/1.1", "accept: Text/Event-Stream, */*;q=0.1", "Host: x"),
            Self.head("GET / HTTP/1.1", "Host: x", "Cookie: a=b", "ACCEPT:text/event-stream"),
        ] {
            #expect(FirstRequest(head, limit: 2048) == .eventStream, "\(String(decoding: head, as: UTF8.self))")
        }
    }

    @Test("Other methods, other types, the type in another field, a head past the limit: not a stream")
    func otherHeads() {
        let long = "Cookie: " + String(repeating: "a", count: 2100)
        for head in [
            Self.head("GET /feed HTTP/1.1", "Host: x", "Accept: text/html"),
            Self.head("POST /feed/live HTTP/1.1", "Host: x", "Accept: text/event-stream", "Content-Length: 0"),
            Self.head("GET /feed/live HTTP/1.1", "Host: x", "Accept-Language: text/event-stream"),
            Self.head("GET /feed/live HTTP/1.1", "X-Note: accept: text/event-stream"),
            Self.head("GET /feed/live HTTP/1.1", "Host: x", long, "Accept: text/event-stream"),
            Array("PRI * HTTP/2.0\r\n".utf8),
        ] {
            #expect(FirstRequest(head, limit: 2048) == .other, "\(String(decoding: head.prefix(60), as: UTF8.self))")
        }
    }

    @Test("The start of a GET head is incomplete; nothing yet is too")
    func incompleteHeads() {
        #expect(FirstRequest(Array("GE".utf8), limit: 2048) == .incomplete)
        #expect(FirstRequest(Array("GET /feed/live HTTP/1.1\r\nAccept: text/event-stream\r\n".utf8), limit: 2048) == .incomplete)
        #expect(FirstRequest([UInt8](), limit: 2048) == .incomplete)
    }

    /// What an `EventSource` sends for `/events`.
    static let eventStreamHead = "GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n"

    /// `/events` writes one event and stays open until the gate opens; `/page` answers at once.
    let gate = Gate()

    func router() -> Router {
        var router = Router(logger: LogCollector().logger)
        router.get("/events") { [gate] _ in
            let stream = ResponseStream(staysOpen: true) { writer in
                await writer.write(Array("data: hello\n\n".utf8))
                await gate.wait()
            }
            return Response(headers: ["Content-Type": "text/event-stream"], body: .stream(stream))
        }
        router.get("/page") { _ in "page" }
        return router
    }

    @Test("An event stream is held by a streams' daemon, whose answers close their connection; a page's connection stays with the pages'")
    func streamsAndPagesApart() async throws {
        try await withLiveServer(router()) { [gate] server in
            try await onOwnThread {
                let stream = try RawHTTPClient(port: server.port)
                try stream.send(Self.eventStreamHead)
                let head = try stream.readResponse(toHead: true)
                #expect(head.status == 200)
                #expect(head.header("Connection") == "close")
                #expect(try stream.readChunk() == Array("data: hello\n\n".utf8))
                let page = try RawHTTPClient(port: server.port)
                #expect(try page.request("/page").status == 200)
                #expect(server.openStreamConnections == 1)
                #expect(server.openConnections == 2)
                // The same stream asked without the type an EventSource sends is a page's request.
                let plain = try RawHTTPClient(port: server.port)
                try plain.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(try plain.readResponse(toHead: true).status == 200)
                #expect(server.openStreamConnections == 1)
                #expect(server.openConnections == 3)
                // Any answer on a streams' daemon's connection closes it, not only a stream's.
                let refused = try RawHTTPClient(port: server.port)
                try refused.send("GET /missing HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                let missing = try refused.readResponse()
                #expect(missing.status == 404)
                #expect(missing.header("Connection") == "close")
                #expect(refused.waitForClose())
                gate.open()
            }
        }
    }

    @Test("A streams' daemon's thread yields to the pages' threads: it runs at nice 10 once it holds a stream")
    func streamThreadsYield() async throws {
        try await withLiveServer(router()) { [gate] server in
            try await onOwnThread {
                let stream = try RawHTTPClient(port: server.port)
                try stream.send(Self.eventStreamHead)
                #expect(try stream.readResponse(toHead: true).status == 200)
                // A thread's nice value: the 19th field of its stat, the 17th after the command's name.
                let nices = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").compactMap { task in
                    try? String(contentsOfFile: "/proc/self/task/\(task)/stat", encoding: .utf8)
                        .split(separator: ")").last?.split(separator: " ").dropFirst(16).first.flatMap { Int($0) }
                }
                #expect(nices.contains(10), "nice values of this process's threads: \(Set(nices))")
                gate.open()
            }
        }
    }

    @Test("A head that comes in parts, or only after the wait for it, is still answered")
    func lateAndSplitHeads() async throws {
        var configuration = ServerConfiguration.forTests()
        // The acceptor waits 50 ms for the first bytes, or a tenth of the head's deadline if that is shorter.
        configuration.requestHeadTimeout = .seconds(1)
        try await withLiveServer(router(), configuration: configuration) { [gate] server in
            try await onOwnThread {
                let split = try RawHTTPClient(port: server.port)
                try split.send("GET /events HTTP/1.1\r\nHost: x\r\n")
                Thread.sleep(forTimeInterval: 0.05)
                try split.send("Accept: text/event-stream\r\n\r\n")
                #expect(try split.readResponse(toHead: true).status == 200)
                let late = try RawHTTPClient(port: server.port)
                Thread.sleep(forTimeInterval: 0.3)
                #expect(try late.request("/page").status == 200)
                // Both went to the pages' daemons: their buffer holds any head.
                #expect(server.openStreamConnections == 0)
                gate.open()
            }
        }
    }
}
