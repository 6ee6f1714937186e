import Dispatch
import Foundation
import Sectional
import SectionalSQL
import SectionalSQLite
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A section whose load is one read of the pool, as the app's sections are.
private final class QuerySection: SectionController {
    let pool: ConnectionPool
    let sql: String
    let placement: SectionLoad.Placement
    private(set) var value: Int?

    init(pool: ConnectionPool, sql: String, placement: SectionLoad.Placement = .mayWait) {
        self.pool = pool
        self.sql = sql
        self.placement = placement
        super.init(id: "query", title: "Query")
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [pool, sql] in try await pool.read { db in try db.query(sql, [])[0].int(0) } }, placement: placement) {
            self.value = $0
        }
    }
}

@Suite("Reads where the caller is", .timeLimit(.minutes(1)))
struct CallerReadTests {
    @Test("On SQLite a read runs on the calling thread and sees what the writer committed; on PostgreSQL on a pool thread", arguments: Engine.sql)
    func readsOnTheCallingThread(engine: Engine) async throws {
        let pool = try await TestDatabase.pool(engine, size: 1)
        defer { pool.close() }
        let writer = try await pool.write { db in
            try db.executeScript("CREATE TABLE marks (n INTEGER)")
            try db.execute("INSERT INTO marks (n) VALUES (7)")
            return pthread_self()
        }
        let caller = pthread_self()
        let (reader, value) = try await pool.read { db in (pthread_self(), try db.query("SELECT n FROM marks", [])[0].int(0)) }
        #expect(value == 7)
        #expect((reader == caller) == (engine == .sqlite), "SQLite reads where it is called; PostgreSQL on its pool")
        #expect(reader != writer || engine == .postgres, "SQLite's reads never take the writer's thread")
        try await pool.write { db in try db.execute("INSERT INTO marks (n) VALUES (8)") }
        #expect(try await pool.read { db in try db.query("SELECT count(*) FROM marks", [])[0].int(0) } == 2, "a later commit is seen")
    }

    @Test("A SQLite reader refuses to write")
    func readersOnlyRead() async throws {
        let pool = try await TestDatabase.pool(.sqlite, size: 1)
        defer { pool.close() }
        try await pool.write { db in try db.executeScript("CREATE TABLE marks (n INTEGER)") }
        await #expect(throws: SQLError.self) { try await pool.read { db in try db.execute("INSERT INTO marks (n) VALUES (1)") } }
        #expect(try await pool.run { db in try db.query("SELECT count(*) FROM marks", [])[0].int(0) } == 0)
    }

    @Test(
        "A query that runs past its section's deadline is interrupted on the request's thread; the section falls back, the thread reads on",
        arguments: [SectionLoad.Placement.mayWait, .readsHere])
    func deadlineInterruptsARead(placement: SectionLoad.Placement) async throws {
        let pool = try await TestDatabase.pool(.sqlite, size: 1)
        defer { pool.close() }
        let page = StackPageController(id: "page", title: "Page")
        let hanging = QuerySection(pool: pool, sql: ConnectionPoolTests.hangingQuery(.sqlite), placement: placement)
        let quick = QuerySection(pool: pool, sql: "SELECT 6 * 7", placement: placement)
        page.addChild(hanging)
        page.addChild(quick)
        // The recursive query never ends by itself: only the interrupt at the deadline returns this.
        // Placed `.readsHere`, both run in this task, and the cut stops the read through the thread's connection.
        let options = LoadOptions(timeout: .milliseconds(200), stopsReadsHere: { ConnectionPool.stopperOfThisThread() })
        let report = await page.loadTree(options)
        #expect(report.outcomes.map(\.status) == [.timedOut, .ok])
        guard case .failed(let error) = hanging.loadState else {
            Issue.record("the hanging section did not fail: \(hanging.loadState)")
            return
        }
        #expect(error is SectionTimedOut)
        #expect(quick.value == 42)
        // The interrupted connection is this thread's own, and reads on.
        #expect(try await pool.read { db in try db.query("SELECT 1 + 1", [])[0].int(0) } == 2)
    }

    @Test("A read waiting for the writer's lock (a database in memory has no WAL) is cut at its deadline too")
    func deadlineCutsAReadWaitingForALock() async throws {
        let path = SQLiteConnection.sharedMemory(named: "caller-read-lock-\(UUID().uuidString)")
        let pool = try ConnectionPool(
            size: 1, dialect: .sqlite, readers: { () throws(SQLError) in try SQLiteConnection(path: path, readOnly: true) }
        ) { () throws(SQLError) in try SQLiteConnection(path: path) }
        defer { pool.close() }
        try await pool.write { db in try db.executeScript("CREATE TABLE marks (n INTEGER); INSERT INTO marks (n) VALUES (1)") }
        let (locked, locking) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let writer = Task {
            try await pool.write { db in
                try db.execute("INSERT INTO marks (n) VALUES (2)")
                locking.yield()
                release.wait()
            }
        }
        for await _ in locked { break }
        let page = StackPageController(id: "page", title: "Page")
        let waiting = QuerySection(pool: pool, sql: "SELECT count(*) FROM marks")
        page.addChild(waiting)
        // The busy timeout is 5 s: only the cut ends the wait this soon.
        let clock = ContinuousClock()
        let start = clock.now
        let report = await page.loadTree(LoadOptions(timeout: .milliseconds(200)))
        let waited = start.duration(to: clock.now)
        release.signal()
        try await writer.value
        #expect(report.outcomes.map(\.status) == [.timedOut])
        #expect(waited < .seconds(4), "the read waited \(waited) for the lock")
        #expect(try await pool.read { db in try db.query("SELECT count(*) FROM marks", [])[0].int(0) } == 2)
    }

    @Test("Cancelling the reading task interrupts its statement")
    func cancellationInterrupts() async throws {
        let pool = try await TestDatabase.pool(.sqlite, size: 1)
        defer { pool.close() }
        let (started, starting) = AsyncStream<Void>.makeStream()
        let reading = Task {
            try await pool.read { db in
                starting.yield()
                return try db.query(ConnectionPoolTests.hangingQuery(.sqlite), [])
            }
        }
        for await _ in started { break }
        reading.cancel()
        await #expect(throws: SQLError.self) { try await reading.value }
    }

    @Test("An interrupt that comes after its connection closed raises the flag only: it never reaches the freed connection")
    func interruptAfterClose() {
        let engineCalls = Atomic(0)
        let interrupter = SQLInterrupter { engineCalls.add(1, ordering: .relaxed) }
        interrupter.interrupt()
        #expect(engineCalls.load(ordering: .relaxed) == 1)
        interrupter.connectionClosed()
        interrupter.interrupt()
        #expect(engineCalls.load(ordering: .relaxed) == 1, "the engine's interrupt ran after the connection closed")
        #expect(interrupter.isRequested)
    }

    @Test("After the pool closes, a read fails with a clear error")
    func closedPoolRefusesReads() async throws {
        let pool = try await TestDatabase.pool(.sqlite, size: 1)
        #expect(try await pool.read { db in try db.query("SELECT 1", [])[0].int(0) } == 1)
        pool.close()
        let error = await #expect(throws: SQLError.self) { try await pool.read { db in try db.query("SELECT 1", []) } }
        #expect(error?.code == "closed")
    }
}
