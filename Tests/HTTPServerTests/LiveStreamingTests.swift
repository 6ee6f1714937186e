import Foundation
import SectionalTesting
import Synchronization
import Testing

@testable import HTTPServer

/// A handed-over body's writer, as the test holds it.
final class HeldWriter: Sendable {
    private let held = Mutex<ResponseBodyWriter?>(nil)
    var writer: ResponseBodyWriter? { held.withLock { $0 } }
    func hold(_ writer: ResponseBodyWriter) { held.withLock { $0 = writer } }
    /// Lets the writer go, as a holder does once its body ended: the writer keeps the server's core, which keeps the router holding this.
    func release() { held.withLock { $0 = nil } }
}

/// What a stream's producer got to do, for the test to check.
final class ProducerLog: Sendable {
    let events = Mutex<[String]>([])
    func record(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

@Suite("Streamed responses over a real socket")
struct LiveStreamingTests {
    let gate = Gate()
    let log = ProducerLog()

    /// `/stream` writes `first`, waits for the gate, writes `second`, then
    /// keeps writing while the client is there; `staysOpen` as an event stream.
    func router(keepWriting: Bool = false, staysOpen: Bool = false) -> Router {
        var router = Router(logger: LogCollector().logger)
        router.get("/stream") { [gate, log] _ in
            Response(
                headers: ["Content-Type": "text/plain"],
                body: .stream(
                    ResponseStream(staysOpen: staysOpen) { writer in
                        log.record("started")
                        await writer.write(Array("first".utf8))
                        await gate.wait()
                        await writer.write(Array("second".utf8))
                        while keepWriting && writer.isOpen && !Task.isCancelled {
                            try? await Task.sleep(for: .milliseconds(5))
                            await writer.write(Array("more".utf8))
                        }
                        log.record(Task.isCancelled ? "cancelled" : "done")
                    }))
        }
        return router
    }

    @Test("The first chunk arrives before the producer has written the rest; keep-alive survives")
    func chunksArriveAsWritten() async throws {
        try await withLiveServer(router()) { server in
            let gate = gate
            try await onOwnThread {
                let client = try RawHTTPClient(port: server.port)
                try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                let head = try client.readResponse(toHead: true)
                #expect(head.status == 200)
                #expect(head.header("Transfer-Encoding") == "chunked")
                #expect(head.header("Connection") == nil)
                #expect(try client.readChunk() == Array("first".utf8))
                gate.open()
                var rest: [UInt8] = []
                while let chunk = try client.readChunk() { rest += chunk }
                #expect(rest == Array("second".utf8))
                let next = try client.request("/stream")
                #expect(String(decoding: next.body, as: UTF8.self) == "firstsecond")
            }
        }
    }

    @Test("Event streams parked on both streams' daemons, woken all at once from several threads, each get their next write")
    func parkedStreamsWokenTogether() async throws {
        // libmicrohttpd wakes a daemon once for resumes that come while its wake-up is pending:
        // every stream must still be resumed, and none wait for another's wake-up.
        try await withLiveServer(router(staysOpen: true)) { server in
            let gate = gate
            try await onOwnThread {
                let clients = try (0..<64).map { _ in
                    let client = try RawHTTPClient(port: server.port, timeout: .seconds(10))
                    try client.send("GET /stream HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                    return client
                }
                for client in clients {
                    #expect(try client.readResponse(toHead: true).status == 200)
                    #expect(try client.readChunk() == Array("first".utf8))
                }
                // Each producer now waits at the gate, its reader parked: one opening wakes all 64.
                gate.open()
                for client in clients {
                    var rest: [UInt8] = []
                    while let chunk = try client.readChunk() { rest += chunk }
                    #expect(rest == Array("second".utf8))
                }
            }
        }
        #expect(log.all.filter { $0 == "done" }.count == 64)
    }

    /// `/events`: a handed-over body that writes `first`, then is held in
    /// `held` for the test to write; `closed` opens when it closes.
    func handingOverRouter(held: HeldWriter, closed: Gate) -> Router {
        var router = Router(logger: LogCollector().logger)
        router.get("/events") { _ in
            Response(
                headers: ["Content-Type": "text/event-stream"],
                body: .stream(
                    ResponseStream(handingOver: { writer in
                        held.hold(writer)
                        writer.whenClosed { closed.open() }
                        writer.writeWithoutWaiting(Array("first".utf8))
                    })))
        }
        return router
    }

    @Test("A handed-over body is written after its opening returns, by whatever holds its writer, and ends when that finishes it")
    func handedOverBodyIsWrittenLater() async throws {
        let held = HeldWriter()
        let closed = Gate()
        try await withLiveServer(handingOverRouter(held: held, closed: closed)) { server in
            let writer = try await onOwnThread { () -> ResponseBodyWriter? in
                let client = try RawHTTPClient(port: server.port, timeout: .seconds(10))
                try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                #expect(try client.readResponse(toHead: true).status == 200)
                #expect(try client.readChunk() == Array("first".utf8))
                // Its opening has returned: the writer is held, and written from here, a thread of the test's.
                let writer = held.writer
                writer?.writeWithoutWaiting(Array("second".utf8))
                #expect(try client.readChunk() == Array("second".utf8))
                writer?.finish()
                #expect(try client.readChunk() == nil, "the body ended")
                return writer
            }
            // Whoever holds the writer learns the body is over, and lets it go.
            await closed.wait()
            #expect(writer?.isOpen == false)
            held.release()
        }
    }

    @Test("A handed-over body's writer learns its client left when it writes, as a heartbeat does", .timeLimit(.minutes(1)))
    func handedOverBodyHearsTheClientLeave() async throws {
        let held = HeldWriter()
        let closed = Gate()
        try await withLiveServer(handingOverRouter(held: held, closed: closed)) { server in
            try await onOwnThread {
                let client = try RawHTTPClient(port: server.port, timeout: .seconds(10))
                try client.send("GET /events HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\n\r\n")
                _ = try client.readResponse(toHead: true)
                #expect(try client.readChunk() == Array("first".utf8))
            }  // The client closes its socket, as a browser closing the tab does.
            // A parked connection is not watched: a write finds the client gone (the first may
            // still go out, before the peer's reset comes back), as the stream's heartbeats do.
            let writer = held.writer
            while writer?.isOpen == true {
                writer?.writeWithoutWaiting(Array(":hb\n\n".utf8))
                await Task.yield()
            }
            await closed.wait()
            held.release()
        }
    }

    @Test("An open stream to an HTTP/1.0 client, which gets no chunks, arrives byte for byte through libmicrohttpd's small block")
    func openStreamToHTTP10() async throws {
        let event = Array("data: ".utf8) + (0..<3_000).map { UInt8(ascii: "a") + UInt8($0 % 26) } + Array("\n\n".utf8)
        var router = Router(logger: LogCollector().logger)
        router.get("/events") { _ in
            Response(
                headers: ["Content-Type": "text/event-stream"],
                body: .stream(
                    ResponseStream(staysOpen: true) { writer in
                        await writer.write(event)
                        await writer.write(event)
                    }))
        }
        try await withLiveServer(router) { server in
            let received = try await onOwnThread { () -> String in
                let client = try RawHTTPClient(port: server.port)
                try client.send("GET /events HTTP/1.0\r\n\r\n")
                return client.readUntilClosed()
            }
            let parts = received.components(separatedBy: "\r\n\r\n")
            #expect(parts.first?.hasPrefix("HTTP/1.0 200") == true || parts.first?.hasPrefix("HTTP/1.1 200") == true)
            #expect(!(parts.first ?? "").lowercased().contains("transfer-encoding"), "no chunks for HTTP/1.0")
            #expect(parts.dropFirst().joined(separator: "\r\n\r\n") == String(decoding: event + event, as: UTF8.self))
        }
    }

    @Test("HEAD of a streamed resource sends headers only and never runs the producer")
    func headRunsNoProducer() async throws {
        try await withLiveServer(router()) { server in
            let response = try await onOwnThread { try RawHTTPClient(port: server.port).request("HEAD", "/stream") }
            #expect(response.status == 200)
            #expect(response.body.isEmpty)
        }
        #expect(log.all.isEmpty)
    }

    @Test(
        "A client that leaves mid-stream cancels the producer and leaves no request behind",
        arguments: [false, true])
    func clientGoneCancelsProducer(staysOpen: Bool) async throws {
        // An event stream's producer runs in a task of its own: the client's leaving must reach it there.
        try await withLiveServer(router(keepWriting: true, staysOpen: staysOpen)) { server in
            let gate = gate
            try await onOwnThread {
                let client = try RawHTTPClient(port: server.port)
                try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try client.readResponse(toHead: true)
                _ = try client.readChunk()
                client.disconnect()
                gate.open()
            }
            for _ in 0..<400 where !(log.all.contains("cancelled") && server.requestsInFlight == 0) {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(log.all == ["started", "cancelled"])
            #expect(server.requestsInFlight == 0)
        }
    }

    @Test("Stopping the server with a stream in flight ends it cleanly")
    func stopWithStreamInFlight() async throws {
        let server = try Server.start(.forTests(shutdownGrace: .milliseconds(200)), responder: router(), logger: LogCollector().logger)
        let port = server.port
        let closed = try await onOwnThread {
            let client = try RawHTTPClient(port: port, timeout: .seconds(5))
            try client.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try client.readResponse(toHead: true)
            _ = try client.readChunk()
            server.stop()
            while (try? client.readChunk()) != nil {}
            return client.isClosedByServer()
        }
        #expect(closed)
        #expect(RawHTTPClient.isRefused(port: port))
        gate.open()
    }
}

@Suite("A client that reads slowly", .timeLimit(.minutes(1)))
struct SlowReaderTests {
    @Test("makes the producer wait, never fail: 16 MiB arrive whole, and the producer is never more than its backlog ahead")
    func slowReaderHoldsTheProducer() async throws {
        let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 256 * 1024)
        let produced = Atomic<Int>(0)
        let mostUnsent = Mutex(0)
        var router = Router(logger: LogCollector().logger)
        router.get("/big") { _ in
            streamed { writer in
                for _ in 0..<64 {
                    await writer.write(chunk)
                    produced.add(chunk.count, ordering: .relaxed)
                    mostUnsent.withLock { $0 = max($0, writer.unsentBytes) }
                }
            }
        }
        try await withLiveServer(router) { server in
            let received = try await onOwnThread { [port = server.port] () -> Int in
                let client = try RawHTTPClient(port: port, timeout: .seconds(20))
                try client.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
                _ = try client.readResponse(toHead: true)
                // Two writes go out unasked; the reader takes nothing until they have.
                while produced.load(ordering: .relaxed) < 2 * chunk.count { usleep(1000) }
                var total = 0
                while let piece = try client.readChunk() { total += piece.count }
                return total
            }
            #expect(received == 64 * chunk.count, "every byte arrived; the old hard limit ended the stream at 4 MiB")
        }
        #expect(mostUnsent.withLock { $0 } <= ResponseBodyWriter.backlogLimit + chunk.count)
    }
}

@Suite("Streams leak nothing")
struct StreamLeakTests {
    @Test("Every finished stream, with its request, is freed")
    func finishedStreamsAreFreed() async throws {
        var router = Router(logger: LogCollector().logger)
        router.get("/stream") { _ in twoPartStream("one", "two") }
        try await withLiveServer(router) { server in
            let bodies = try await onOwnThread {
                let client = try RawHTTPClient(port: server.port)
                return try (0..<20).map { _ in String(decoding: try client.request("/stream").body, as: UTF8.self) }
            }
            #expect(bodies.allSatisfy { $0 == "onetwo" })
            for _ in 0..<200 where server.requestsInFlight > 0 || server.liveStreams > 0 {
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(server.liveStreams == 0)
        }
    }
}

@Suite("A stream finished before its headers go out")
struct FinishedStreamTests {
    @Test("is sent whole, with a Content-Length, byte for byte what was written")
    func sentWhole() async throws {
        var router = Router(logger: LogCollector().logger)
        router.get("/quick") { _ in
            streamed { writer in
                await writer.write(Array("head,".utf8))
                await writer.write(Array("body".utf8))
            }
        }
        try await withLiveServer(router) { server in
            let response = try await onOwnThread { try RawHTTPClient(port: server.port).request("/quick") }
            #expect(response.header("Content-Length") == "9")
            #expect(response.header("Transfer-Encoding") == nil)
            #expect(String(decoding: response.body, as: UTF8.self) == "head,body")
        }
    }
}

@Suite("A streamed answer given at once")
struct ImmediateStreamTests {
    @Test("is produced in a task all the same: by a replying route's .now and by an immediate route")
    func producedInATask() async throws {
        var router = Router(logger: LogCollector().logger)
        router.on(.get, "/replying", replying: { _ in .now(twoPartStream("at ", "once")) })
        router.getSynchronously("/immediate") { _ in twoPartStream("at ", "once") }
        try await withLiveServer(router) { server in
            for path in ["/replying", "/immediate"] {
                let response = try await onOwnThread { try RawHTTPClient(port: server.port).request(path) }
                #expect(response.status == 200)
                #expect(String(decoding: response.body, as: UTF8.self) == "at once", "\(path)")
                let head = try await onOwnThread { try RawHTTPClient(port: server.port).request("HEAD", path) }
                #expect(head.status == 200)
                #expect(head.body.isEmpty)
            }
        }
    }
}

/// A streamed answer that writes `first`, lets other tasks run, then writes `second`.
private func twoPartStream(_ first: String, _ second: String) -> Response {
    Response(
        body: .stream(
            ResponseStream { writer in
                await writer.write(Array(first.utf8))
                await Task.yield()
                await writer.write(Array(second.utf8))
            }))
}

/// A plain-text answer written by `produce`.
private func streamed(_ produce: @escaping @Sendable (ResponseBodyWriter) async -> Void) -> Response {
    Response(headers: ["Content-Type": "text/plain"], body: .stream(ResponseStream(produce)))
}
