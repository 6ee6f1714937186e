import FeedApp
import Sectional
import SectionalSQL
import SectionalServer
import Testing

@Suite("Live changes are recorded in the write's own transaction", .timeLimit(.minutes(1)))
struct LiveVersionsTests {
    struct WriteFailed: Error {}

    @Test("A write that rolls back records no change; one that commits does, and a new hub reads it back", arguments: Engine.allCases)
    func onlyCommittedChanges(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let pool = try #require(data.pool)
            let key = LiveKey("notes", of: 7)
            await #expect(throws: WriteFailed.self) {
                try await pool.write { db in
                    _ = try LiveVersions.record(key, in: db)
                    throw WriteFailed()
                }
            }
            let committed = try await pool.write { db in try LiveVersions.record(key, in: db) }
            #expect(committed == LiveHub.Change(key: key, version: 1), "the rolled-back change left no version behind")

            let restarted = LiveHub()
            await data.loadLiveVersions(into: restarted)
            #expect(restarted.version(of: key) == 1)
        }
    }

    @Test("On PostgreSQL, a listener hears a committed change and never one rolled back")
    func listenerHearsOnlyCommits() async throws {
        let location = try await TestDatabase.newLocation(.postgres)
        guard case .postgres(let url) = location else { return }
        let data = try await AppData.open(location, connections: 2, hasher: .init(.minimal))
        defer { data.pool?.close() }
        let pool = try #require(data.pool)
        let hub = LiveHub()
        let listener = hub.listening(to: url)
        defer { listener.stop() }
        let (rolledBack, committed): (LiveKey, LiveKey) = ("rolled-back", "committed")
        let watching = try #require(hub.subscribe(to: [rolledBack, committed], user: "1", session: nil))
        // The listener connects in the background: commit until it hears one, so the test waits for it without a sleep.
        var heard: LiveHub.Change?
        for _ in 0..<50 where heard == nil {
            await #expect(throws: WriteFailed.self) {
                try await pool.write { db in
                    _ = try LiveVersions.record(rolledBack, in: db)
                    throw WriteFailed()
                }
            }
            _ = try await pool.write { db in try LiveVersions.record(committed, in: db) }
            heard = await LiveReplicaTests.first(watching.changes, within: .milliseconds(200))
        }
        #expect(heard?.key == committed)
        #expect(hub.version(of: rolledBack) == 0, "no NOTIFY of a rolled-back transaction was delivered")
        watching.end()
    }
}
