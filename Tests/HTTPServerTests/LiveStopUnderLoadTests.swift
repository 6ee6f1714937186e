import HTTPServer
import SectionalTesting
import Synchronization
import Testing

/// `stop()` while clients keep sending on keep-alive connections to an async
/// route: handlers finish, new requests arrive and connections are parked
/// and resumed, all while the server shuts down. libmicrohttpd aborts the
/// process if any connection is still suspended when the daemon stops, and a
/// resume after the stop would touch freed memory.
@Suite(.timeLimit(.minutes(1))) struct LiveStopUnderLoadTests {
    static let clients = 12
    /// How many requests the server handles before the test stops it.
    static let handledBeforeStop = 40

    /// What one client saw: the statuses it got, and how its connection ended.
    struct Outcome: Sendable {
        var statuses: [Int] = []
        var ending = ""
    }

    /// Forty rounds, four at a time: enough contention to hit the narrow
    /// windows, few enough descriptors for a default limit of 1024.
    @Test func stopWhileClientsKeepSending() async throws {
        for batch in 0..<10 {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for round in batch * 4..<batch * 4 + 4 {
                    group.addTask { try await Self.stopWhileClientsKeepSending(round: round) }
                }
                try await group.waitForAll()
            }
        }
    }

    static func stopWhileClientsKeepSending(round: Int) async throws {
        let handled = Atomic<Int>(0)
        let (enough, enoughSignal) = AsyncStream<Void>.makeStream()
        var router = Router(logger: LogCollector().logger)
        router.get("/work") { request in
            if handled.add(1, ordering: .relaxed).newValue == handledBeforeStop { enoughSignal.yield() }
            let micros = Int(request.queryValue("micros") ?? "0") ?? 0
            try await Task.sleep(for: .microseconds(micros))
            return "done"
        }
        // A grace of 0 to 2 ms: the stop sweeps the parked requests while
        // handlers are finishing and new requests are arriving.
        let server = try Server.start(.forTests(shutdownGrace: .milliseconds(round % 3)), responder: router)
        let port = server.port

        let outcomes = try await withThrowingTaskGroup(of: Outcome.self) { group in
            for client in 0..<clients {
                group.addTask {
                    try await onOwnThread {
                        var outcome = Outcome()
                        do {
                            let connection = try RawHTTPClient(port: port, timeout: .seconds(10))
                            for index in 0..<1000 {
                                let micros = (client * 7 + index * 13) % 16 * 100
                                outcome.statuses.append(try connection.request("/work?micros=\(micros)").status)
                            }
                            outcome.ending = "still open after 1000 requests"
                        } catch RawHTTPClient.Failure.closedByServer, RawHTTPClient.Failure.connect {
                            outcome.ending = "closed"
                        } catch {
                            outcome.ending = "\(error)"
                        }
                        return outcome
                    }
                }
            }
            for await _ in enough { break }
            try await onOwnThread { server.stop() }
            return try await group.reduce(into: [Outcome]()) { $0.append($1) }
        }

        // Every client was answered until its connection closed; none hung.
        #expect(outcomes.allSatisfy { $0.ending == "closed" }, "round \(round): \(outcomes.map(\.ending))")
        #expect(outcomes.allSatisfy { $0.statuses.allSatisfy { [200, 503].contains($0) } })
        #expect(outcomes.reduce(0) { $0 + $1.statuses.count } >= handledBeforeStop - clients)
        #expect(RawHTTPClient.isRefused(port: port))
    }
}
