import Foundation
import HTTPServer
import SectionalTesting
import Synchronization
import Testing

/// New connections are shared out over the worker threads, so that a burst
/// of them (a load generator's, a proxy's pool) keeps every core busy.
@Suite(.timeLimit(.minutes(1))) struct WorkerBalanceTests {
    /// Requests answered, by the worker thread that answered them.
    final class Answerers: Sendable {
        private let counts = Mutex<[UInt: Int]>([:])
        func record() { counts.withLock { $0[UInt(bitPattern: Int(bitPattern: pthread_self())), default: 0] += 1 } }
        var perThread: [Int] { counts.withLock { Array($0.values) } }
    }

    @Test("A burst of 32 connections to two workers is answered by both, about half each")
    func burstIsShared() async throws {
        let answerers = Answerers()
        var router = Router()
        // Answered at once, on the worker thread that holds the connection.
        router.getImmediately("/which") { _ in
            answerers.record()
            return "ok"
        }
        var configuration = ServerConfiguration.forTests()
        configuration.threads = 2
        try await withLiveServer(router, configuration: configuration) { server in
            let statuses = try await onOwnThread { [port = server.port] in
                try RawHTTPClient.batch(32, port: port).map { try $0.request("/which").status }
            }
            #expect(statuses.allSatisfy { $0 == 200 })
        }
        // Alternating, each gets 16; other tests' sockets opened meanwhile may shift a few.
        let perThread = answerers.perThread
        #expect(perThread.count == 2, "answered on \(perThread.count) threads")
        #expect(perThread.allSatisfy { $0 >= 8 }, "answers per thread: \(perThread)")
    }
}
