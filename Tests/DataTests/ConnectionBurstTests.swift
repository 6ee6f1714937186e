import HTTPServer
import SectionalTesting
import Testing

extension TakingTurns {
    /// Holds 512 descriptors at once: beside no launch of a process (`TakingTurns` says why).
    @Suite("A burst of connections", .timeLimit(.minutes(1)))
    struct ConnectionBurstTests {
        @Test("A burst of 256 connections, 128 to each page daemon, is answered at once, not after the idle timeout")
        func burstOfExactlyAFullBatch() async throws {
            // libmicrohttpd asked its epoll set again after a full batch of 128 events with the
            // same timeout, and waited there while the 128 it held went unanswered.
            var router = Router(logger: LogCollector().logger)
            router.get("/page") { _ in "page" }
            var configuration = ServerConfiguration.forTests()
            configuration.threads = 2
            try await withLiveServer(router, configuration: configuration) { server in
                let statuses = try await onOwnThread { () -> [Int] in
                    let clients = try (0..<256).map { _ in try RawHTTPClient(port: server.port, timeout: .seconds(5)) }
                    for client in clients { try client.send("GET /page HTTP/1.1\r\nHost: x\r\n\r\n") }
                    return clients.map { (try? $0.readResponse().status) ?? 0 }
                }
                #expect(statuses.filter { $0 == 200 }.count == 256)
            }
        }
    }
}
