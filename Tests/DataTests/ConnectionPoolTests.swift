import Foundation
import SectionalPostgres
import SectionalSQL
import SectionalSQLite
import Testing

@Suite("The connection pool, on SQLite and PostgreSQL", .timeLimit(.minutes(1)))
struct ConnectionPoolTests {
    /// A statement that never ends on its own.
    static func hangingQuery(_ engine: Engine) -> String {
        engine == .sqlite
            ? "WITH RECURSIVE forever(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM forever) SELECT count(*) FROM forever"
            : "SELECT pg_sleep(30)"
    }

    @Test("Parameters bind by number, whatever order the statement names them in", arguments: Engine.sql)
    func parametersByNumber(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine)
        defer { pool.close() }
        let row = try await pool.run { db in
            try db.query("SELECT CAST($2 AS TEXT) || '-' || CAST($1 AS TEXT), CAST($3 AS TEXT)", ["first", "second", .null])[0]
        }
        #expect(try row.text(0) == "second-first")
        #expect(row.optionalText(1) == nil)
    }

    @Test("Each row of a result reads its own columns, NULLs and all", arguments: Engine.sql)
    func rowsReadTheirOwnColumns(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine)
        defer { pool.close() }
        let rows = try await pool.run { db in
            try db.query(
                "SELECT 1, 'one', NULL UNION ALL SELECT 2, 'two', 'b' UNION ALL SELECT 3, 'a text longer than a short string', NULL ORDER BY 1",
                [])
        }
        #expect(rows.count == 3)
        #expect(try rows.map { try $0.int(0) } == [1, 2, 3])
        #expect(try rows.map { try $0.text(1) } == ["one", "two", "a text longer than a short string"])
        #expect(rows.map { $0.optionalText(2) } == [nil, "b", nil])
        #expect(rows.allSatisfy { $0.count == 3 })
        #expect(rows[1] == SQLRow(engine == .sqlite ? [2, "two", "b"] : ["2", "two", "b"]))
        #expect(rows[1].values == (engine == .sqlite ? [2, "two", "b"] : ["2", "two", "b"]))
        #expect(rows[0] != rows[2])
        #expect(try await pool.run { db in try db.query("SELECT 1 WHERE 1 = 0", []) }.isEmpty)
        if engine == .postgres {
            // Rows of no columns are still rows: an existence check may ask for nothing else.
            #expect(try await pool.run { db in try db.query("SELECT FROM (VALUES (1), (2)) AS t", []) }.map(\.count) == [0, 0])
        }
    }

    @Test("A cancelled statement answers at once; the connection then serves the next caller", arguments: Engine.sql)
    func cancelInterruptsAndTheConnectionIsReused(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 1)
        defer { pool.close() }
        let clock = ContinuousClock()
        let start = clock.now
        let hanging = Task { try await pool.run { db in try db.query(Self.hangingQuery(engine), []) } }
        try await Task.sleep(for: .milliseconds(100))
        hanging.cancel()
        await #expect(throws: CancellationError.self) { try await hanging.value }
        // Well short of pg_sleep's 30 s, and loose for a busy machine: the whole suite once took 5.5 s here.
        #expect(start.duration(to: clock.now) < .seconds(15))
        // The pool's one connection is free again, and works.
        let answer = try await pool.run { db in try db.query("SELECT 41 + 1", [])[0].int(0) }
        #expect(answer == 42)
        #expect(start.duration(to: clock.now) < .seconds(15), "the interrupted statement still held the connection")
    }

    @Test("Work cancelled before it starts never runs", arguments: Engine.sql)
    func cancelledBeforeStarting(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 1)
        defer { pool.close() }
        try await pool.run { db in try db.executeScript("CREATE TABLE marks (n INTEGER)") }
        let blocker = Task { try await pool.run { db in try db.query(Self.hangingQuery(engine), []) } }
        try await Task.sleep(for: .milliseconds(50))
        let queued = Task { try await pool.run { db in try db.execute("INSERT INTO marks (n) VALUES (1)") } }
        try await Task.sleep(for: .milliseconds(50))
        queued.cancel()
        await #expect(throws: CancellationError.self) { try await queued.value }
        blocker.cancel()
        _ = try? await blocker.value
        #expect(try await pool.run { db in try db.query("SELECT count(*) FROM marks", [])[0].int(0) } == 0)
    }

    @Test("Statements on separate connections run at once: four 200 ms sleeps overlap")
    func concurrentStatements() async throws {
        let pool = try await TestDatabase.pool(.postgres, size: 4)
        defer { pool.close() }
        let clock = ContinuousClock()
        // Each statement's start and end, taken on its pool thread: they must all overlap,
        // however busy the machine (a wall-clock bound would measure the machine too).
        let spans = try await withThrowingTaskGroup(of: (ContinuousClock.Instant, ContinuousClock.Instant).self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await pool.run { db in
                        let start = clock.now
                        _ = try db.query("SELECT pg_sleep(0.2)", [])
                        return (start, clock.now)
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        let lastStart = spans.map(\.0).max()!, firstEnd = spans.map(\.1).min()!
        #expect(lastStart < firstEnd, "the four statements ran one after another, not at once")
    }

    @Test("A database that cannot be opened fails the pool at once, with the engine's reason")
    func unopenable() async throws {
        #expect(throws: SQLError.self) {
            try ConnectionPool(size: 2, dialect: .sqlite) { () throws(SQLError) in try SQLiteConnection(path: "/proc/no/such/dir/x.sqlite") }
        }
        // Opened from async code, the wait is on a thread of its own; the error is the same.
        let error = await #expect(throws: SQLError.self) {
            try await ConnectionPool.opening(size: 1, dialect: .postgres) { () throws(SQLError) in
                try PostgresConnection(url: "postgres://app@127.0.0.1:1/none?connect_timeout=2")
            }
        }
        #expect(error?.code == "08001")
    }

    @Test("A failed statement rolls its transaction back and leaves the connection usable", arguments: Engine.sql)
    func failedTransactionRollsBack(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 1)
        defer { pool.close() }
        try await pool.run { db in try db.executeScript("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)") }
        await #expect(throws: SQLError.self) {
            try await pool.write { db in
                try db.execute("INSERT INTO items (id, name) VALUES (1, 'kept only if all succeed')")
                try db.execute("INSERT INTO items (id, name) VALUES (1, 'duplicate key')")
            }
        }
        #expect(try await pool.run { db in try db.query("SELECT count(*) FROM items", [])[0].int(0) } == 0)
    }

    /// Text went to SQLite as a C string, so `hostile-a\0' OR 1=1--` was
    /// looked up as `hostile-a`. SQLite now gets every byte; PostgreSQL, whose
    /// text cannot hold a NUL, refuses the statement and stores nothing.
    @Test("Text with a NUL is bound whole, or refused, never cut at the NUL", arguments: Engine.sql)
    func textWithNUL(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 1)
        defer { pool.close() }
        try await pool.run { db in try db.executeScript("CREATE TABLE names (name TEXT NOT NULL)") }
        try await pool.write { db in try db.execute("INSERT INTO names (name) VALUES ($1)", [.text("hostile-a")]) }
        let sneaky = "hostile-a\u{0}' OR 1=1--"
        let found = { () async throws -> Int in
            try await pool.run { db in try db.query("SELECT count(*) FROM names WHERE name = $1", [.text(sneaky)])[0].int(0) }
        }
        switch engine {
        case .sqlite:
            #expect(try await found() == 0, "the whole text is compared, NUL and all")
            try await pool.write { db in try db.execute("INSERT INTO names (name) VALUES ($1)", [.text(sneaky)]) }
            let stored = try await pool.run { db in try db.query("SELECT length(CAST(name AS BLOB)) FROM names WHERE name = $1", [.text(sneaky)]) }
            #expect(try stored.map { try $0.int(0) } == [sneaky.utf8.count])
        default:
            await #expect(throws: SQLError(code: "22021", message: "a text parameter holds a NUL byte, which PostgreSQL cannot store")) {
                try await found()
            }
        }
        let empty = try await pool.run { db in try db.query("SELECT coalesce(length(CAST($1 AS TEXT)), -1)", [.text("")]) }
        #expect(try empty[0].int(0) == 0, "empty text is text of length 0, not NULL")
    }
}
