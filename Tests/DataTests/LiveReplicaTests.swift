import FeedApp
import Foundation
import HTTPServer
import SectionalAccounts
import SectionalPostgres
import SectionalSecurity
import SectionalServer
import SectionalTesting
import Testing

@Suite("Live changes across replicas on PostgreSQL", .timeLimit(.minutes(1)))
struct LiveReplicaTests {
    @Test("A dismissal through one replica reaches a stream on another; a listener that lost its connection catches up")
    func acrossReplicas() async throws {
        let location = try await TestDatabase.newLocation(.postgres)
        guard case .postgres(let url) = location else { return }
        let first = try await AppData.open(location, connections: 2, hasher: PasswordHasher(.minimal))
        let second = try await AppData.open(location, connections: 2, hasher: PasswordHasher(.minimal))
        defer {
            first.pool?.close()
            second.pool?.close()
        }
        let (hubA, hubB) = (LiveHub(), LiveHub())
        let listeners = [hubA.listening(to: url), hubB.listening(to: url)]
        defer { listeners.forEach { $0.stop() } }
        let replicaA = Browser(
            InProcessClient(
                try buildRouter(publicDirectory: FormHarness.publicDirectory, data: first, live: hubA, logger: LogCollector().logger)))
        try await replicaA.signIn("alex", "alex-demo-1")
        try await Task.sleep(for: .milliseconds(300))  // both listeners have connected

        let watching = try #require(hubB.subscribe(to: ["alerts:1"], user: "1", session: nil))
        let page = try await replicaA.get("/feed?stream=0").bodyText
        let alert = try await first.feed.alerts(of: UserID(1))[0]
        let dismiss = try #require(Browser.form("/feed/alerts/\(alert.id)/dismiss", in: page))
        #expect(try await replicaA.post("/feed/alerts/\(alert.id)/dismiss", form: dismiss).status == .seeOther)
        let stored = { try await first.pool!.run { db in try LiveVersions.change(of: "alerts:1", in: db) } }
        let change = await Self.first(watching.changes, within: .seconds(2))
        let storedAfterDismissal = try await stored()
        #expect(change == storedAfterDismissal, "replica B heard replica A's commit")

        // Replica B's listener loses its connection; a change made meanwhile is not lost.
        _ = try await onOwnThread {
            try PostgresConnection(url: url).query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'LISTEN%'", [])
        }
        let restore = try #require(Browser.form("/feed/alerts/restore", in: try await replicaA.get("/feed?stream=0").bodyText))
        #expect(try await replicaA.post("/feed/alerts/restore", form: restore).status == .seeOther)
        let caughtUp = await Self.first(watching.changes, within: .seconds(8))
        let storedAfterRestoring = try await stored()
        #expect(caughtUp == storedAfterRestoring, "after reconnecting, the listener read the stored version")
        #expect(caughtUp.map { $0.version > change?.version ?? .max } == true)
        watching.end()
    }

    /// The stream's next change, or `nil` after `timeout`.
    static func first(_ changes: LiveChanges, within timeout: Duration) async -> LiveHub.Change? {
        await withTaskGroup(of: LiveHub.Change?.self) { group in
            group.addTask {
                var iterator = changes.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
