import FeedApp
import SectionalSQL
import Testing

@Suite("Migrations", .timeLimit(.minutes(1)))
struct MigrationTests {
    static let steps = [
        Migration(1, "notes", sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL)"),
        Migration(2, "note titles", sql: "ALTER TABLE notes ADD COLUMN title TEXT"),
    ]

    @Test("Pending steps apply once, in order; a second run applies none", arguments: Engine.sql)
    func applyOnce(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 1)
        defer { pool.close() }
        #expect(try await pool.run { db in try db.migrate(Array(Self.steps.reversed())) } == [1, 2])
        #expect(try await pool.run { db in try db.migrate(Self.steps) } == [])
        #expect(try await pool.run { db in try db.schemaVersion() } == 2)
        try await pool.run { db in try db.execute("INSERT INTO notes (id, body, title) VALUES ($1, $2, $3)", [1, "b", "t"]) }
    }

    @Test("A failing step applies nothing of its run", arguments: Engine.sql)
    func allOrNothing(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 1)
        defer { pool.close() }
        let broken = Self.steps + [Migration(3, "broken", sql: "CREATE TABLE notes (id INTEGER)")]
        await #expect(throws: SQLError.self) { try await pool.run { db in try db.migrate(broken) } }
        // The schema_version table itself was rolled back with the steps.
        #expect(try await pool.run { db in try db.migrate(Self.steps) } == [1, 2])
    }

    @Test("Three servers starting at once on one database apply each step once", arguments: Engine.sql)
    func concurrentStarts(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 3)
        defer { pool.close() }
        let applied = try await withThrowingTaskGroup(of: [Int].self) { group in
            for _ in 0..<3 { group.addTask { try await pool.run { db in try db.migrate(Self.steps) } } }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        #expect(applied.sorted() == [1, 2])
        #expect(try await pool.run { db in try db.query("SELECT count(*) FROM schema_version", [])[0].int(0) } == 2)
    }
}
