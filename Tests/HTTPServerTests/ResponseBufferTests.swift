import HTTPServer
import SectionalTesting
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A body handed over in a `ResponseBuffer` (a rendered page's writer's
/// memory) is sent from that memory, whole, and the memory is freed once
/// libmicrohttpd is done with it.
@Suite(.timeLimit(.minutes(1))) struct ResponseBufferTests {
    /// `count` bytes of a pattern that shows any byte out of place, in memory of their own.
    static func buffer(count: Int) -> ResponseBuffer {
        let memory = UnsafeMutableBufferPointer(start: malloc(max(count, 1))!.bindMemory(to: UInt8.self, capacity: count), count: count)
        for index in 0..<count { memory[index] = UInt8(truncatingIfNeeded: index % 251) }
        return ResponseBuffer(taking: memory)
    }

    /// Keeps the last buffer a route answered with, weakly: whether it is freed once sent.
    final class LastBuffer: Sendable {
        private let last = Mutex<ResponseBufferReference?>(nil)
        func keep(_ buffer: ResponseBuffer) { last.withLock { $0 = ResponseBufferReference(buffer) } }
        var isFreed: Bool { last.withLock { $0?.buffer == nil } }
    }

    struct ResponseBufferReference: @unchecked Sendable {
        weak var buffer: ResponseBuffer?
        init(_ buffer: ResponseBuffer) { self.buffer = buffer }
    }

    @Test(
        "A buffer's bytes go out exactly, with their length, on a connection kept alive; HEAD sends the length alone",
        arguments: [0, 1, 5_000, 200_000])
    func sentWhole(count: Int) async throws {
        var router = Router(logger: LogCollector().logger)
        router.getSynchronously("/page") { _ in Response(body: .buffer(Self.buffer(count: count))) }
        let expected = Self.buffer(count: count).withBytes { Array($0) }
        try await withLiveServer(router) { server in
            let port = server.port
            let (get, head, again) = try await onOwnThread {
                let client = try RawHTTPClient(port: port)
                return (try client.request("/page"), try client.request("HEAD", "/page"), try client.request("/page"))
            }
            #expect(get.status == 200)
            #expect(get.header("Content-Length") == String(count))
            #expect(get.body == expected)
            #expect(head.header("Content-Length") == String(count))
            #expect(head.body.isEmpty)
            #expect(again.body == expected, "the connection stays usable after a buffer's answer")
        }
    }

    @Test("A buffer is freed once its answer is sent, not kept by the server")
    func freedOnceSent() async throws {
        let last = LastBuffer()
        var router = Router(logger: LogCollector().logger)
        router.getSynchronously("/page") { _ in
            let buffer = Self.buffer(count: 10_000)
            last.keep(buffer)
            return Response(body: .buffer(buffer))
        }
        try await withLiveServer(router) { server in
            let port = server.port
            let answer = try await onOwnThread { try RawHTTPClient(port: port).request("/page") }
            #expect(answer.body.count == 10_000)
            // libmicrohttpd lets go of the response when the request completes, just after the last byte.
            var waited = 0
            while !last.isFreed && waited < 100 {
                try await Task.sleep(for: .milliseconds(10))
                waited += 1
            }
            #expect(last.isFreed)
        }
    }

    @Test("In process, a buffer's body reads as its bytes")
    func bodyBytes() {
        let response = Response(body: .buffer(Self.buffer(count: 300)))
        #expect(response.bodyBytes == Self.buffer(count: 300).withBytes { Array($0) })
        #expect(response.body.count == 300)
    }
}
