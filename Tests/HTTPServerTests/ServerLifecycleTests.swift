import Foundation
import HTTPServer
import SectionalTesting
import Testing

/// Starting, stopping, and what a stop does to requests in flight.
@Suite(.timeLimit(.minutes(1))) struct ServerLifecycleTests {
    /// A router whose `/slow` says it has started, then answers once `finish` returns.
    static func slowRouter(
        started: AsyncStream<Void>.Continuation, finish: @escaping @Sendable () async throws -> Void
    ) -> Router {
        var router = LiveRoutes.router()
        router.get("/slow") { _ in
            started.yield()
            try await finish()
            return "done"
        }
        return router
    }

    /// `/slow` held until `release` is yielded: a request in flight for as long as a test needs.
    static func heldRouter() -> (router: Router, started: AsyncStream<Void>, release: AsyncStream<Void>.Continuation) {
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        return (slowRouter(started: startedSignal) { for await _ in release { break } }, started, releaseSignal)
    }

    @Test func stopLetsARequestInFlightFinishThenRefusesConnections() async throws {
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let router = Self.slowRouter(started: startedSignal) { try await Task.sleep(for: .milliseconds(300)) }
        // A grace far longer than the request: stop() returns as soon as it is answered.
        let server = try Server.start(.forTests(shutdownGrace: .seconds(30)), responder: router)
        let port = server.port

        async let answer = onOwnThread {
            let client = try RawHTTPClient(port: port)
            let response = try client.request("/slow")
            return (response, client.isClosedByServer())
        }
        for await _ in started { break }
        #expect(server.requestsInFlight == 1)
        try await onOwnThread { server.stop() }

        let (response, closed) = try await answer
        #expect(response.status == 200)
        #expect(response.text == "done")
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(closed)
        #expect(RawHTTPClient.isRefused(port: port))
        #expect(server.requestsInFlight == 0)
        #expect(server.openConnections == 0)
    }

    @Test func aConnectionOpenedWhileStoppingIsClosedUnanswered() async throws {
        let (router, started, releaseSignal) = Self.heldRouter()
        // The request in flight holds the stop open for as long as the test needs.
        let server = try Server.start(.forTests(shutdownGrace: .seconds(30)), responder: router)
        let port = server.port
        async let answer = onOwnThread { try RawHTTPClient(port: port).request("/slow") }
        for await _ in started { break }
        async let stopped: Void = onOwnThread { server.stop() }
        // Until the stop begins a newcomer is answered; from then on it is closed at once, without an
        // answer: not left waiting in the listen queue until the stop ends.
        let closedAtOnce = try await onOwnThread { () -> Bool in
            for _ in 0..<1_000 {  // up to 10 s: under a loaded machine the stop may take a while to begin
                let client = try RawHTTPClient(port: port, timeout: .seconds(5))
                do {
                    _ = try client.request("/hello")
                } catch RawHTTPClient.Failure.closedByServer(afterBytes: 0) {
                    return true
                }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        #expect(closedAtOnce)
        releaseSignal.yield()
        releaseSignal.finish()
        #expect(try await answer.text == "done", "the request in flight still finishes")
        try await stopped
        #expect(RawHTTPClient.isRefused(port: port))
    }

    @Test func requestOutlastingTheGraceIsAnswered503() async throws {
        let (router, started, releaseSignal) = Self.heldRouter()
        let server = try Server.start(.forTests(shutdownGrace: .seconds(1)), responder: router)
        let port = server.port

        async let answer = onOwnThread { try RawHTTPClient(port: port).request("/slow") }
        for await _ in started { break }
        try await onOwnThread { server.stop() }
        let response = try await answer
        #expect(response.status == 503)
        #expect(response.header("Connection")?.lowercased() == "close")
        #expect(RawHTTPClient.isRefused(port: port))
        // The handler finishing after the stop must touch nothing that is gone.
        releaseSignal.yield()
        releaseSignal.finish()
    }

    @Test func stopTwiceIsHarmless() async throws {
        let server = try Server.start(.forTests(), responder: LiveRoutes.router())
        let port = server.port
        let response = try await onOwnThread { try RawHTTPClient(port: port).request("/hello") }
        #expect(response.status == 200)
        try await onOwnThread {
            server.stop()
            server.stop()
        }
        #expect(RawHTTPClient.isRefused(port: port))
    }

    @Test func busyPortIsReportedAsAddressInUse() async throws {
        try await withLiveServer(LiveRoutes.router()) { first in
            var configuration = ServerConfiguration.forTests()
            configuration.port = first.port
            #expect(throws: ServerError.addressInUse(host: "127.0.0.1", port: first.port)) {
                try Server.start(configuration, responder: LiveRoutes.router())
            }
            // The failed attempt leaves the first server answering.
            let port = first.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request("/hello") }
            #expect(response.status == 200)
        }
    }

    @Test func portZeroPicksAFreePortThatAnswers() async throws {
        try await withLiveServer(LiveRoutes.router()) { server in
            #expect(server.port > 0)
            let port = server.port
            let response = try await onOwnThread { try RawHTTPClient(port: port).request("/hello") }
            #expect(response.text == LiveRoutes.hello)
        }
    }

    @Test(arguments: ["256.1.1.1", "no-such-host.invalid"])
    func unusableHostIsAClearError(host: String) {
        var configuration = ServerConfiguration.forTests()
        configuration.host = host
        #expect(throws: ServerError.cannotResolve(host: host)) {
            try Server.start(configuration, responder: LiveRoutes.router())
        }
    }
}
