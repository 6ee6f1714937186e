import HTTPServer
import SectionalTesting
import Synchronization
import Testing

@Suite("A service group")
struct ServiceGroupTests {
    struct Refused: Error {}

    /// What the parts did, in order.
    final class Events: Sendable {
        private let events = Mutex<[String]>([])
        func record(_ event: String) { events.withLock { $0.append(event) } }
        var all: [String] { events.withLock { $0 } }
    }

    @Test("starts its parts where they are declared, hands each what it started, and stops them last first")
    func order() throws {
        let events = Events()
        let group = ServiceGroup(logger: LogCollector().logger)
        let database = try group.start("database", { "db" }, stop: { events.record("stop " + $0) })
        let server = try group.start("server", { database + "+server" }, stop: { events.record("stop " + $0) })
        #expect(server == "db+server")
        group.stopAll()
        #expect(events.all == ["stop db+server", "stop db"])
        group.stopAll()
        #expect(events.all.count == 2, "each part stops once")
    }

    @Test("a part that fails to start stops those started before it, last first, and its error is thrown")
    func failedStart() throws {
        let events = Events()
        let group = ServiceGroup(logger: LogCollector().logger)
        _ = try group.start("database", { events.record("start database") }, stop: { events.record("stop database") })
        _ = try group.start("listener", { events.record("start listener") }, stop: { events.record("stop listener") })
        #expect(throws: Refused.self) {
            try group.start("server", { () throws -> Int in throw Refused() }, stop: { _ in events.record("stop server") })
        }
        #expect(events.all == ["start database", "start listener", "stop listener", "stop database"])
    }
}
