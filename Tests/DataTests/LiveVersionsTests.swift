import FeedApp
import Foundation
import Sectional
import SectionalPostgres
import SectionalSQL
import SectionalSQLite
import SectionalServer
import Testing

/// Launches the `sqlite3` and `psql` shells: beside no suite that holds many descriptors (`TakingTurns` says why).
extension TakingTurns {
    @Suite("Live versions are raised by the database, in the write's own transaction", .timeLimit(.minutes(1)))
    struct LiveVersionsTests {
        struct WriteFailed: Error {}

        private static func stored(_ key: String, in pool: ConnectionPool) async throws -> Int {
            try await pool.run { db in try db.query("SELECT version FROM live_versions WHERE key = $1", [.text(key)]).first?.int(0) ?? 0 }
        }

        @Test("A write that rolls back raises nothing; one that commits does, whoever writes; a new hub reads it back", arguments: Engine.allCases)
        func onlyCommittedChanges(engine: Engine) async throws {
            try await TestDatabase.withData(engine) { data, _ in
                let pool = try #require(data.pool)
                let before = try await Self.stored("accounts:1", in: pool)
                let samsBefore = try await Self.stored("accounts:2", in: pool)
                await #expect(throws: WriteFailed.self) {
                    try await pool.write { db in
                        try db.execute("UPDATE accounts SET balance_cents = balance_cents + 1 WHERE user_id = 1")
                        throw WriteFailed()
                    }
                }
                #expect(try await Self.stored("accounts:1", in: pool) == before, "the rolled-back change left no version behind")
                // Plain SQL, as a correction made by hand would be: no app code asks for the version.
                let change = try await pool.write { db in
                    try db.execute("UPDATE accounts SET balance_cents = balance_cents + 1 WHERE user_id = 1")
                    return try LiveVersions.change(of: "accounts:1", in: db)
                }
                #expect(change.version > before)
                #expect(try await Self.stored("accounts:1", in: pool) == change.version)
                #expect(try await Self.stored("accounts:2", in: pool) == samsBefore, "sam's accounts did not change")

                let restarted = LiveHub()
                await data.loadLiveVersions(into: restarted)
                #expect(restarted.version(of: "accounts:1") == change.version)
            }
        }

        @Test("Inserts, deletes and a row moved to another owner raise each owner's key", arguments: [Engine.sqlite, .postgres])
        func everyKindOfChange(engine: Engine) async throws {
            try await TestDatabase.withData(engine) { data, _ in
                let pool = try #require(data.pool)
                func versions() async throws -> (alex: Int, sam: Int) {
                    (try await Self.stored("transactions:1", in: pool), try await Self.stored("transactions:2", in: pool))
                }
                var last = try await versions()
                try await pool.write { db in
                    try db.execute("INSERT INTO transactions (user_id, day, merchant, amount_cents) VALUES (1, '2026-12-01', 'Bakery', -450)")
                }
                var now = try await versions()
                #expect(now.alex > last.alex && now.sam == last.sam, "an insert raises its owner's")
                last = now
                try await pool.write { db in try db.execute("UPDATE transactions SET user_id = 2 WHERE merchant = 'Bakery'") }
                now = try await versions()
                #expect(now.alex > last.alex && now.sam > last.sam, "a row moved from alex to sam changes both")
                last = now
                try await pool.write { db in try db.execute("DELETE FROM transactions WHERE merchant = 'Bakery'") }
                now = try await versions()
                #expect(now.sam > last.sam && now.alex == last.alex, "a delete raises its owner's")
            }
        }

        @Test("A session's touch is no change of who it is; its end and a new password are", arguments: [Engine.sqlite, .postgres])
        func signInVersions(engine: Engine) async throws {
            try await TestDatabase.withData(engine) { data, _ in
                let pool = try #require(data.pool)
                try await pool.write { db in
                    try db.execute("INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at) VALUES ('h', 1, 10, 10)")
                }
                let opened = try await Self.stored("signin:1", in: pool)
                try await pool.write { db in try db.execute("UPDATE sessions SET last_seen_at = 99 WHERE token_hash = 'h'") }
                #expect(try await Self.stored("signin:1", in: pool) == opened, "a touch raises nothing")
                try await pool.write { db in try db.execute("UPDATE users SET password_hash = 'x' WHERE id = 1") }
                let renamed = try await Self.stored("signin:1", in: pool)
                #expect(renamed > opened, "the user's record changed")
                try await pool.write { db in try db.execute("DELETE FROM sessions WHERE token_hash = 'h'") }
                #expect(try await Self.stored("signin:1", in: pool) > renamed, "the session ended")
            }
        }

        @Test("On PostgreSQL, a listener hears a change made in psql, and never one rolled back")
        func listenerHearsOnlyCommits() async throws {
            let location = try await TestDatabase.newLocation(.postgres)
            guard case .postgres(let url) = location else { return }
            let data = try await AppData.open(location, connections: 2, hasher: .init(.minimal))
            defer { data.pool?.close() }
            let pool = try #require(data.pool)
            let hub = LiveHub()
            let listener = hub.listening(to: url)
            defer { listener.stop() }
            let (rolledBack, committed): (LiveKey, LiveKey) = ("credit-score:2", "credit-score:1")
            let storedBefore = try await Self.stored(rolledBack.description, in: pool)
            let watching = try #require(hub.subscribe(to: [rolledBack, committed], user: "1", session: nil))
            // The listener connects in the background: commit until it hears one, so the test waits for it without a sleep.
            var heard: LiveHub.Change?
            for month in 0..<50 where heard == nil {
                await #expect(throws: WriteFailed.self) {
                    try await pool.write { db in
                        try db.execute("UPDATE credit_scores SET score = score + 1 WHERE user_id = 2")
                        throw WriteFailed()
                    }
                }
                try Self.psql(url, "INSERT INTO credit_scores (user_id, month, score) VALUES (1, \(1_000 + month), 700)")
                heard = await LiveReplicaTests.first(watching.changes, within: .milliseconds(200))
            }
            #expect(heard?.key == committed)
            #expect(try await Self.stored(rolledBack.description, in: pool) == storedBefore)
            #expect(hub.version(of: rolledBack) <= storedBefore, "no NOTIFY of a rolled-back transaction was delivered")
            watching.end()
        }

        @Test("On SQLite, the watcher hears a change made in sqlite3, another process")
        func watcherHearsAnotherProcess() async throws {
            try await TestDatabase.withData(.sqlite) { data, location in
                guard case .sqlite(let path) = location else { return }
                let hub = LiveHub()
                await data.loadLiveVersions(into: hub)
                let before = hub.version(of: "alerts:1"), samsBefore = hub.version(of: "alerts:2")
                let watcher = try await SQLiteVersionWatcher.start(updating: hub, every: .milliseconds(20)) { () throws(SQLError) in
                    try SQLiteConnection(path: path, readOnly: true)
                }
                defer { watcher.stop() }
                let watching = try #require(hub.subscribe(to: ["alerts:1"], user: "1", session: nil))
                try Self.sqlite3(path, "UPDATE alerts SET dismissed = 1 WHERE user_id = 1")
                let heard = await LiveReplicaTests.first(watching.changes, within: .seconds(10))
                #expect(heard?.key == "alerts:1")
                #expect(hub.version(of: "alerts:1") > before)
                #expect(hub.version(of: "alerts:2") == samsBefore, "sam's alerts did not change")
                watching.end()
            }
        }

        /// Runs `sql` in the `sqlite3` shell on `path`: a process of its own.
        static func sqlite3(_ path: String, _ sql: String) throws {
            try run("/usr/bin/env", ["sqlite3", path, sql])
        }

        /// Runs `sql` in `psql` on `url`.
        static func psql(_ url: String, _ sql: String) throws {
            try run("/usr/bin/env", ["psql", "--quiet", "--no-psqlrc", "-v", "ON_ERROR_STOP=1", url, "-c", sql])
        }

        private static func run(_ executable: String, _ arguments: [String]) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw ShellFailed(command: arguments.joined(separator: " ")) }
        }

        struct ShellFailed: Error, CustomStringConvertible {
            var command: String
            var description: String { "\(command) failed" }
        }
    }
}
