import Foundation
import SectionalSQL
import SectionalSQLite
import Testing

/// `StatementBurst` on SQLite: the reads a request makes on its thread
/// before it first waits share one read transaction, ended with the burst.
@Suite("Reads in a burst on SQLite", .timeLimit(.minutes(1)))
struct StatementBurstTests {
    @Test("Reads in a burst see one snapshot, begun at the first; a write committed between them shows only after the burst")
    func oneSnapshotThenFresh() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sectional-burst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("burst.sqlite").path
        let pool = try await ConnectionPool.openingSQLite(path)
        defer { pool.close() }
        try await pool.write { db in try db.executeScript("CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (1)") }
        // Another writer of the file, as another process would be: it commits while the burst reads.
        let outside = try SQLiteConnection(path: path)

        // Each read runs on this thread to its end, as a request's reads on SQLite do.
        func readNow() -> Task<Int, any Error> {
            Task.immediate { try await pool.query("SELECT value FROM counter")[0].int(0) }
        }
        var inBurst: [Task<Int, any Error>] = []
        StatementBurst.together {
            inBurst.append(readNow())
            _ = try? outside.query("UPDATE counter SET value = 2", [])
            inBurst.append(readNow())
        }
        #expect(try await inBurst[0].value == 1)
        #expect(try await inBurst[1].value == 1, "the second read of the burst saw a write made after its first")
        #expect(try await readNow().value == 2, "a read after the burst still saw its snapshot")

        // Without a burst, each read sees what was committed before it.
        let before = readNow()
        _ = try outside.query("UPDATE counter SET value = 3", [])
        #expect(try await before.value == 2)
        #expect(try await readNow().value == 3)
    }

    @Test("A failed read in a burst leaves the reads after it, and after the burst, working")
    func failedReadInBurst() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sectional-burst-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pool = try await ConnectionPool.openingSQLite(directory.appendingPathComponent("burst.sqlite").path)
        defer { pool.close() }
        try await pool.write { db in try db.executeScript("CREATE TABLE counter (value INTEGER NOT NULL); INSERT INTO counter VALUES (7)") }
        var reads: [Task<Int, any Error>] = []
        StatementBurst.together {
            reads.append(Task.immediate { try await pool.query("SELECT value FROM no_such_table")[0].int(0) })
            reads.append(Task.immediate { try await pool.query("SELECT value FROM counter")[0].int(0) })
        }
        await #expect(throws: SQLError.self) { try await reads[0].value }
        #expect(try await reads[1].value == 7)
        try await pool.write { db in _ = try db.query("UPDATE counter SET value = 8", []) }
        #expect(try await pool.query("SELECT value FROM counter")[0].int(0) == 8, "the burst's transaction was left open")
    }
}
