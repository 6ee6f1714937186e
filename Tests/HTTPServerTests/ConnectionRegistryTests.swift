import Testing

@testable import HTTPServer

/// The registry's bookkeeping, apart from sockets that exist.
@Suite struct ConnectionRegistryTests {
    @Test("An age stamped by another thread after 'now' was read is zero, not a trap")
    func ageAcrossThreads() {
        #expect(ConnectionRegistry.age(since: 2_000, now: 1_000) == 0)
        #expect(ConnectionRegistry.age(since: 1_000, now: 3_500) == 2_500)
    }

    @Test("A connection shut down for a late head is refused when its head arrives; one never seen is let through")
    func lateHeadIsRefused() {
        let registry = ConnectionRegistry(headTimeout: .zero, softLimit: 16)
        registry.opened(-1)  // no such socket: shutdown(2) on it fails harmlessly
        registry.sweep()
        #expect(!registry.headArrived(-1))
        registry.closed(-1)
        #expect(registry.count == 0)
        #expect(registry.headArrived(-2))
    }
}
