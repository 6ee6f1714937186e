import HTTPServer
import SectionalTesting
import Testing

/// Many clients at once: every request answered, each with its own answer.
@Suite(.timeLimit(.minutes(2))) struct LiveConcurrencyTests {
    static let clients = 8
    static let requestsPerClient = 125

    @Test func thousandConcurrentRequestsOnKeepAliveConnections() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            let port = server.port
            let results = try await withThrowingTaskGroup(of: [RawResponse].self) { group in
                for client in 0..<Self.clients {
                    group.addTask {
                        try await onOwnThread {
                            let connection = try RawHTTPClient(port: port)
                            return try (0..<Self.requestsPerClient).map { index in
                                try connection.request("/echo?v=c\(client)-r\(index)")
                            }
                        }
                    }
                }
                return try await group.reduce(into: [[RawResponse]]()) { $0.append($1) }
            }

            #expect(results.count == Self.clients)
            let all = results.flatMap { $0 }
            #expect(all.count == Self.clients * Self.requestsPerClient)
            #expect(all.allSatisfy { $0.status == 200 })
            #expect(all.allSatisfy { $0.header("Connection")?.lowercased() != "close" })
            // Each client got its own answers, in the order it asked.
            let expected = Set(
                (0..<Self.clients).map { client in
                    (0..<Self.requestsPerClient).map { "c\(client)-r\($0)" }
                })
            #expect(Set(results.map { $0.map(\.text) }) == expected)
            #expect(Set(all.map(\.text)).count == all.count)
        }
    }
}
