import Foundation
import SectionalSQL
import SectionalSQLite
import SectionalTesting
import Synchronization
import Testing

/// `StatementBurst` on SQLite: the reads a request makes on its thread
/// before it first waits share one read transaction, ended with the burst.
/// Each test runs on one thread of its own, whose read connection every
/// read here uses, so a transaction left open on it shows.
@Suite("Reads in a burst on SQLite", .timeLimit(.minutes(1)))
struct StatementBurstTests {
    @Test("Reads in a burst see one snapshot, begun at the first; a write committed between them shows after the burst")
    func oneSnapshotThenFresh() async throws {
        let seen = try await onOneThread { pool, outside in
            var seen: [Int?] = []
            StatementBurst.together {
                seen.append(Self.readHere(pool))
                _ = try? outside.query("UPDATE counter SET value = 2", [])
                seen.append(Self.readHere(pool))
            }
            seen.append(Self.readHere(pool))
            // Without a burst, each read sees what was committed before it.
            _ = try? outside.query("UPDATE counter SET value = 3", [])
            seen.append(Self.readHere(pool))
            return seen
        }
        #expect(seen == [1, 1, 2, 3])
    }

    @Test("A burst ended in a cancelled task still ends its read: the thread's connection sees later writes")
    func cancelledTaskEndsItsRead() async throws {
        let seen = try await onOneThread { pool, outside in
            let inBurst = ReadResult()
            _ = Task.immediate {
                StatementBurst.together {
                    inBurst.value = Self.readHere(pool)
                    // The request's client left before its burst ended.
                    withUnsafeCurrentTask { $0?.cancel() }
                }
            }
            _ = try? outside.query("UPDATE counter SET value = 4", [])
            return [inBurst.value, Self.readHere(pool)]
        }
        #expect(seen == [1, 4], "the burst's transaction was left open on the thread's connection")
    }

    @Test("A write through the pool during a burst ends its snapshot first: what the thread reads next includes it")
    func writeEndsTheSnapshot() async throws {
        let seen = try await onOneThread { pool, outside in
            var seen: [Int?] = []
            StatementBurst.together {
                seen.append(Self.readHere(pool))
                _ = try? outside.query("UPDATE counter SET value = 5", [])
                // Only started here; it runs on the writer's thread.
                _ = Task.immediate { try await pool.write { db in _ = try db.query("SELECT 1", []) } }
                seen.append(Self.readHere(pool))
            }
            return seen
        }
        #expect(seen == [1, 5])
    }

    @Test("A failed read in a burst leaves the reads after it, and after the burst, working")
    func failedReadInBurst() async throws {
        let seen = try await onOneThread { pool, outside in
            var seen: [Int?] = []
            StatementBurst.together {
                seen.append(Self.readHere(pool, "SELECT value FROM no_such_table"))
                seen.append(Self.readHere(pool))
            }
            _ = try? outside.query("UPDATE counter SET value = 6", [])
            seen.append(Self.readHere(pool))
            return seen
        }
        #expect(seen == [nil, 1, 6])
    }

    /// `body`'s reads, run on one thread of its own with a pool on a new
    /// file holding `counter` (one row, value 1), and another connection to
    /// the file on that thread, as another process would write it.
    private func onOneThread(_ body: @escaping @Sendable (ConnectionPool, SQLiteConnection) -> [Int?]) async throws -> [Int?] {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sectional-burst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("burst.sqlite").path
        let pool = try await ConnectionPool.openingSQLite(path)
        defer { pool.close() }
        try await pool.write { db in try db.executeScript("CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (1)") }
        return try await onOwnThread { body(pool, try SQLiteConnection(path: path)) }
    }

    /// What `sql` reads now on this thread, by a read that runs to its end
    /// right here, as a request's SQLite reads do; `nil` when it failed or waited.
    private static func readHere(_ pool: ConnectionPool, _ sql: String = "SELECT value FROM counter") -> Int? {
        let result = ReadResult()
        _ = Task.immediate { result.value = try? await pool.query(sql)[0].int(0) }
        return result.value
    }
}

/// A read's value, set by its task and read by the thread that started it.
private final class ReadResult: Sendable {
    private let stored = Mutex<Int?>(nil)

    var value: Int? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
