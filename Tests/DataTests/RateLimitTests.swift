import HTTPServer
import SectionalTesting
import Synchronization
import Testing

@testable import SectionalSecurity

/// The rate limit as a router runs it, on a clock the test moves: a burst
/// passes, the request past it gets `429` with `Retry-After` and never
/// reaches its route, a rest gives requests back, and clients are counted apart.
@Suite struct RateLimitTests {
    final class Clock: Sendable {
        private let time = Mutex(Duration.seconds(1000))
        func read() -> Duration { time.withLock { $0 } }
        func advance(by duration: Duration) { time.withLock { $0 += duration } }
    }

    final class Writes: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    /// Posts limited to 6 a minute, 3 at once, by the `X-Client` field.
    static func router(clock: Clock, writes: Writes, clients: Int = 10_000) -> Router {
        var router = Router(logger: LogCollector().logger)
        router.errorResponder = { error, _ in
            var response = Response(status: error.status, contentType: "text/plain", body: error.message)
            for (name, value) in error.headers { response.headers[name] = value }
            return response
        }
        router.on(.post, "/write") { _ in
            writes.add()
            return "written"
        }
        router.get("/read") { _ in "read" }
        router.use(
            RateLimit(6, per: .seconds(60), burst: 3, clients: clients, client: { $0.headers["X-Client"] ?? "?" }, now: clock.read))
        return router
    }

    static func post(_ router: Router, from client: String = "a") async throws -> Response {
        try await router.respond(to: Request(method: .post, target: "/write", headers: ["X-Client": client]))
    }

    @Test func aBurstPassesAndTheRequestPastItWaitsUntilOneComesBack() async throws {
        let clock = Clock(), writes = Writes()
        let router = Self.router(clock: clock, writes: writes)
        for _ in 1...3 { #expect(try await Self.post(router).status == .ok) }
        let refused = try await Self.post(router)
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "10")
        #expect(writes.value == 3)

        clock.advance(by: .seconds(9))
        #expect(try await Self.post(router).status == .tooManyRequests)
        clock.advance(by: .seconds(1))
        #expect(try await Self.post(router).status == .ok)
        #expect(try await Self.post(router).status == .tooManyRequests)
        #expect(writes.value == 4)
    }

    @Test func aRestFillsTheBucketAgainButNoFurther() async throws {
        let clock = Clock(), writes = Writes()
        let router = Self.router(clock: clock, writes: writes)
        for _ in 1...3 { _ = try await Self.post(router) }
        clock.advance(by: .seconds(3600))
        for _ in 1...3 { #expect(try await Self.post(router).status == .ok) }
        #expect(try await Self.post(router).status == .tooManyRequests)
        #expect(writes.value == 6)
    }

    @Test func readsAndOtherClientsAreNotCounted() async throws {
        let clock = Clock(), writes = Writes()
        let router = Self.router(clock: clock, writes: writes)
        for _ in 1...3 { _ = try await Self.post(router, from: "a") }
        for _ in 1...10 { #expect(try await router.respond(to: Request(method: .get, target: "/read")).status == .ok) }
        for _ in 1...3 { #expect(try await Self.post(router, from: "b").status == .ok) }
        #expect(try await Self.post(router, from: "a").status == .tooManyRequests)
        #expect(writes.value == 6)
    }

    @Test func pastItsClientsTheRestedAreForgottenFirstThenThoseNearestToRested() async throws {
        let clock = Clock(), writes = Writes()
        let router = Self.router(clock: clock, writes: writes, clients: 4)
        // "a" rests; "b", "c" and "d" are 3, 2 and 1 posts from rested when "e" comes.
        _ = try await Self.post(router, from: "a")
        clock.advance(by: .seconds(10))
        for (client, posts) in [("b", 3), ("c", 2), ("d", 1)] {
            for _ in 0..<posts { _ = try await Self.post(router, from: client) }
        }
        for _ in 0..<2 { #expect(try await Self.post(router, from: "e").status == .ok) }
        #expect(try await Self.post(router, from: "b").status == .tooManyRequests, "b is still counted")
        // With none rested, the three furthest from rested stay: b, c and e; d goes.
        #expect(try await Self.post(router, from: "f").status == .ok)
        for _ in 0..<3 { #expect(try await Self.post(router, from: "d").status == .ok, "d starts again, full") }
        #expect(try await Self.post(router, from: "b").status == .tooManyRequests, "the most limited are never forgotten first")
    }

    @Test func anIPv6HostIsCountedByItsBlockNotItsAddress() {
        #expect(RateLimit.bucket(of: "2001:db8:1:2:aaaa::1") == RateLimit.bucket(of: "2001:0db8:0001:0002:ffff:1:2:3"))
        #expect(RateLimit.bucket(of: "2001:db8:1:2::1") == "20010db800010002/64")
        #expect(RateLimit.bucket(of: "2001:db8:1:3::1") != RateLimit.bucket(of: "2001:db8:1:2::1"))
        #expect(RateLimit.bucket(of: "192.0.2.7") == "192.0.2.7")
        #expect(RateLimit.bucket(of: "unknown") == "unknown")
        #expect(RateLimit.bucket(of: "not:an:address") == "not:an:address")
    }
}
