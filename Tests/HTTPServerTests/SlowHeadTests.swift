import Foundation
import HTTPServer
import SectionalTesting
import Testing

/// Clients that never finish a request head: they are closed at the head
/// deadline, make room for others when the server is full, and do not hold
/// up a stop.
@Suite(.timeLimit(.minutes(1))) struct SlowHeadTests {
    @Test("A head trickled a byte at a time is cut at the head deadline, though the idle timeout never fires")
    func trickledHeadIsCut() async throws {
        var configuration = ServerConfiguration.forTests()
        configuration.requestHeadTimeout = .milliseconds(300)
        try await withLiveServer(LiveRoutes.router(), configuration: configuration) { server in
            let closedAfter = try await onOwnThread { [port = server.port] () -> Duration? in
                let client = try RawHTTPClient(port: port, timeout: .seconds(5))
                let start = ContinuousClock.now
                for byte in "GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".map(String.init) {
                    guard (try? client.send(byte)) != nil else { return ContinuousClock.now - start }
                    if ContinuousClock.now - start > .seconds(4) { return nil }
                    Thread.sleep(forTimeInterval: 0.02)
                }
                return client.isClosedByServer() ? ContinuousClock.now - start : nil
            }
            let after = try #require(closedAfter, "the trickling client was never closed")
            #expect(after >= .milliseconds(250) && after < .seconds(3), "closed after \(after)")
        }
    }

    @Test("A kept-alive connection waits for its next head no longer than the deadline either")
    func idleKeepAliveIsClosedAtTheDeadline() async throws {
        var configuration = ServerConfiguration.forTests()
        configuration.requestHeadTimeout = .milliseconds(200)
        try await withLiveServer(LiveRoutes.router(), configuration: configuration) { server in
            let closed = try await onOwnThread { [port = server.port] () -> Bool in
                let client = try RawHTTPClient(port: port, timeout: .seconds(5))
                guard try client.request("/hello").status == 200 else { return false }
                return client.isClosedByServer()
            }
            #expect(closed)
        }
    }

    @Test("At the connection limit, the oldest unfinished heads make room for a new client")
    func fullServerShedsUnfinishedHeads() async throws {
        var configuration = ServerConfiguration.forTests()
        configuration.connectionLimit = 8
        configuration.perClientConnectionLimit = 64
        // Heads may be shed once they have waited a tenth of this: 0.3 s.
        configuration.requestHeadTimeout = .seconds(3)
        try await withLiveServer(LiveRoutes.router(), configuration: configuration) { server in
            let port = server.port
            let outcome = try await onOwnThread { () -> (status: Int, shed: Int) in
                let holders = try (0..<12).map { _ in try RawHTTPClient(port: port, timeout: .milliseconds(100)) }
                for holder in holders { try? holder.send("GET /hello HTTP/1.1\r\nHost: loc") }
                Thread.sleep(forTimeInterval: 0.4)  // older than a newcomer may push out
                let status = try RawHTTPClient(port: port, timeout: .seconds(5)).request("/hello").status
                let shed = holders.filter { $0.isClosedByServer() }.count
                return (status, shed)
            }
            #expect(outcome.status == 200, "the new client was served")
            // Each of the four holders past the limit closed one connection (itself, or an older one once
            // one was old enough); the newcomer closed one more. Without shedding for it, four.
            #expect(outcome.shed == 5, "four for the holders past the limit and one for the newcomer: \(outcome.shed)")
        }
    }

    @Test("One address holds at most its limit of connections over all the worker threads together")
    func perClientLimitOverAllWorkers() async throws {
        var configuration = ServerConfiguration.forTests()
        // Each worker's daemon counts only its own connections.
        configuration.threads = 4
        configuration.perClientConnectionLimit = 3
        try await withLiveServer(LiveRoutes.router(), configuration: configuration) { server in
            let outcome = try await onOwnThread { [port = server.port] () -> (open: Int, status: Int) in
                let clients = try (0..<8).map { _ in try RawHTTPClient(port: port, timeout: .milliseconds(200)) }
                Thread.sleep(forTimeInterval: 0.2)
                let open = clients.filter { !$0.isClosedByServer() }
                return (open.count, try open.first?.request("/hello").status ?? 0)
            }
            #expect(outcome.open == 3, "\(outcome.open) of 8 connections from one address stayed open")
            #expect(outcome.status == 200, "those kept are answered")
        }
    }

    @Test("Stop closes connections that are not being answered at once, not after the grace period")
    func stopDoesNotWaitForHalfHeads() async throws {
        var configuration = ServerConfiguration.forTests(shutdownGrace: .seconds(10))
        configuration.requestHeadTimeout = .seconds(30)
        let server = try Server.start(configuration, responder: LiveRoutes.router(), logger: LogCollector().logger)
        let stoppedAfter = try await onOwnThread { () -> Duration in
            let half = try RawHTTPClient(port: server.port, timeout: .seconds(5))
            try half.send("GET /feed HTTP/1.1\r\nHost: loc")
            let idle = try RawHTTPClient(port: server.port, timeout: .seconds(5))
            _ = try idle.request("/hello")
            Thread.sleep(forTimeInterval: 0.1)
            let start = ContinuousClock.now
            server.stop()
            return ContinuousClock.now - start
        }
        #expect(stoppedAfter < .seconds(2), "stop took \(stoppedAfter) with a 10 s grace period")
    }
}
