import Testing

@testable import HTTPServer

/// The registry's bookkeeping, apart from sockets that exist.
@Suite struct ConnectionRegistryTests {
    @Test("An age stamped by another thread after 'now' was read is zero, not a trap")
    func ageAcrossThreads() {
        #expect(ConnectionRegistry.age(since: 2_000, now: 1_000) == 0)
        #expect(ConnectionRegistry.age(since: 1_000, now: 3_500) == 2_500)
    }

    @Test("A connection shut down for a late head is refused when its head arrives; one in a request is left alone")
    func lateHeadIsRefused() {
        let registry = ConnectionRegistry(headTimeout: .zero, softLimit: 16, perClientLimit: 16)
        // No such sockets: shutdown(2) on them fails harmlessly.
        let late = registry.opened(-1, from: nil)
        let busy = registry.opened(-2, from: nil)
        #expect(registry.headArrived(busy))
        registry.sweep()
        #expect(!registry.headArrived(late))
        registry.requestEnded(busy)
        #expect(registry.headArrived(busy))
        registry.closed(late)
        registry.closed(busy)
        #expect(registry.count == 0)
    }

    @Test("A stream's connection is never swept for its head, yet holds its address's place and counts toward the limit")
    func streamsApart() {
        let registry = ConnectionRegistry(headTimeout: .zero, softLimit: 2, perClientLimit: 2)
        let alex = PeerAddress.ipv4(0x0100_007f)
        let stream = registry.opened(-31, from: alex, isStream: true)
        registry.sweep()
        #expect(registry.headArrived(stream), "its head had come when it was handed over: not shut down as late")
        let page = registry.opened(-32, from: alex)
        let third = registry.opened(-33, from: alex)
        #expect(!registry.headArrived(third), "past the address's two places, the stream's among them")
        registry.closed(third)
        registry.closed(page)
        // A page's connection on the stream's socket, reused before the stream's close is reported,
        // replaces it, and is swept as pages are.
        let reused = registry.opened(-31, from: alex)
        registry.closed(stream)
        #expect(registry.count == 1)
        registry.sweep()
        #expect(!registry.headArrived(reused))
        registry.closed(reused)
        #expect(registry.count == 0)
    }

    @Test("A closed connection's entry goes, but not the entry of a newer connection that reuses its socket")
    func reusedSocket() {
        let registry = ConnectionRegistry(headTimeout: .seconds(10), softLimit: 16, perClientLimit: 16)
        let old = registry.opened(-3, from: nil)
        let new = registry.opened(-3, from: nil)
        registry.closed(old)
        #expect(registry.count == 1)
        registry.closed(new)
        #expect(registry.count == 0)
    }

    @Test("A connection whose socket a newer one reuses gives its address's place back")
    func reusedSocketFreesItsPlace() {
        let registry = ConnectionRegistry(headTimeout: .seconds(10), softLimit: 16, perClientLimit: 1)
        let alex = PeerAddress.ipv4(0x0100_007f)
        let old = registry.opened(-21, from: alex)
        let new = registry.opened(-21, from: alex)
        #expect(registry.headArrived(new), "the old connection's place is the newer one's, not a second place held")
        registry.closed(old)
        registry.closed(new)
        let later = registry.opened(-22, from: alex)
        #expect(registry.headArrived(later), "closing both left the address no place held")
        registry.closed(later)
        #expect(registry.count == 0)
    }

    @Test("One address past its limit is shut down, counted over every worker's connections; others and later ones get in")
    func perClientLimit() {
        let registry = ConnectionRegistry(headTimeout: .seconds(10), softLimit: 16, perClientLimit: 2)
        let alex = PeerAddress.ipv4(0x0100_007f), sam = PeerAddress.ipv4(0x0200_007f)
        let first = registry.opened(-11, from: alex)
        let second = registry.opened(-12, from: alex)
        let third = registry.opened(-13, from: alex)
        let other = registry.opened(-14, from: sam)
        #expect(registry.headArrived(first) && registry.headArrived(second))
        #expect(!registry.headArrived(third), "the third from one address is shut down")
        #expect(registry.headArrived(other), "another address has its own count")
        registry.closed(third)
        registry.closed(first)
        let later = registry.opened(-15, from: alex)
        #expect(registry.headArrived(later), "a closed connection gives its place back")
        for tracked in [second, other, later] { registry.closed(tracked) }
        #expect(registry.count == 0)
    }
}

/// Small pieces of the HTTP layer that must never trap or mislead.
@Suite struct HTTPEdgeTests {
    @Test("A negative duration in Server-Timing reads as zero instead of trapping")
    func negativeTiming() {
        var timing = ServerTiming()
        timing.add("load-x", .microseconds(-1500))
        timing.add("render-x", .microseconds(2500))
        #expect(timing.headerValue == "load-x;dur=0.000, render-x;dur=2.500")
    }

    @Test("A refused target is logged with its control bytes spelled out")
    func printableTarget() {
        #expect(RequestTarget.printable("/a\u{1b}[2K\rfake") == "/a\\x1B[2K\\x0Dfake")
        #expect(RequestTarget.printable("/plain?x=1") == "/plain?x=1")
    }

    @Test("Head deadlines below zero or beyond a year make a registry, not a trap")
    func extremeHeadTimeouts() {
        #expect(ConnectionRegistry(headTimeout: .seconds(-5), softLimit: 1, perClientLimit: 1).count == 0)
        #expect(ConnectionRegistry(headTimeout: .seconds(Int64.max), softLimit: 1, perClientLimit: 1).count == 0)
    }

    @Test("A route's methods share one shape: GET and POST on /notes/{id} both answer, Allow lists both")
    func methodsOnOnePattern() async throws {
        var router = Router()
        router.get("/notes/{id}") { request in "get \(request.parameters["id"] ?? "")" }
        router.on(.post, "/notes/{id}") { request in "post \(request.parameters["id"] ?? "")" }
        #expect(await router.respond(to: Request(method: .post, path: "/notes/7")).bodyText == "post 7")
        #expect(await router.respond(to: Request(method: .get, path: "/notes/7")).bodyText == "get 7")
        let refused = await router.respond(to: Request(method: .delete, path: "/notes/7"))
        #expect(refused.status == .methodNotAllowed)
        #expect(refused.headers["Allow"] == "GET, HEAD, POST")
    }
}
