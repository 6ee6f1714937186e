import Foundation
import HTTPServer
import SectionalTesting
import Synchronization
import Testing

/// New connections are handed to the worker threads in turn, so that under
/// load every core stays busy.
@Suite(.timeLimit(.minutes(1))) struct WorkerBalanceTests {
    /// Requests answered, by the worker thread that answered them.
    final class Answerers: Sendable {
        private let counts = Mutex<[UInt: Int]>([:])
        let busyStarted = Atomic<Bool>(false)
        func record() { counts.withLock { $0[Self.thread, default: 0] += 1 } }
        var perThread: [UInt: Int] { counts.withLock { $0 } }
        static var thread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
    }

    @Test("A busy worker keeps its share of new connections: a burst is answered by both workers, not the idle one alone")
    func busyWorkerKeepsItsShare() async throws {
        let answerers = Answerers()
        let busyThread = Mutex<UInt?>(nil)
        var router = Router()
        // Answered at once, on the worker thread that holds the connection.
        router.getSynchronously("/which") { _ in
            answerers.record()
            return "ok"
        }
        // Holds its worker thread, as a burst finds one worker in the middle of an answer.
        router.getSynchronously("/busy") { _ in
            busyThread.withLock { $0 = Answerers.thread }
            answerers.busyStarted.store(true, ordering: .releasing)
            Thread.sleep(forTimeInterval: 0.3)
            return "ok"
        }
        var configuration = ServerConfiguration.forTests()
        configuration.threads = 2
        try await withLiveServer(router, configuration: configuration) { server in
            let port = server.port
            async let busy = onOwnThread { try RawHTTPClient(port: port).request("/busy").status }
            let statuses = try await onOwnThread { () -> [Int] in
                while !answerers.busyStarted.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.005) }
                let clients = try (0..<16).map { _ in try RawHTTPClient(port: port) }
                for client in clients { try client.send("GET /which HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n") }
                return try clients.map { try $0.readResponse().status }
            }
            #expect(try await busy == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
        // Threads racing on one shared socket: the idle one took all 16. Handed out in turn, each has 8.
        let busy = try #require(busyThread.withLock { $0 })
        #expect(answerers.perThread[busy, default: 0] > 0, "answers per thread: \(answerers.perThread), the busy one \(busy)")
    }
}
