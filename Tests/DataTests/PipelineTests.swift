import Foundation
import SectionalSQL
import SectionalTesting
import Testing

@testable import SectionalPostgres

/// `ConnectionPool.query` on PostgreSQL: statements of many callers share
/// a few pipelined connections.
@Suite("Reads pipelined on PostgreSQL", .timeLimit(.minutes(1)))
struct PipelineTests {
    @Test("Hundreds of callers at once over two connections: each gets its own rows, NULLs and all")
    func eachCallerGetsItsOwnRows() async throws {
        let pool = try await TestDatabase.pool(.postgres, size: 2)
        defer { pool.close() }
        let answers = try await withThrowingTaskGroup(of: (Int, [SQLRow]).self) { group in
            for caller in 0..<300 {
                group.addTask {
                    let rows = try await pool.query(
                        "SELECT CAST($1 AS INTEGER) * 2, CAST($2 AS TEXT), NULL FROM generate_series(1, CAST($1 AS INTEGER) % 3)",
                        [.int(caller), .text("caller \(caller)")])
                    return (caller, rows)
                }
            }
            return try await group.reduce(into: [:]) { $0[$1.0] = $1.1 }
        }
        #expect(answers.count == 300)
        for (caller, rows) in answers {
            #expect(rows.count == caller % 3, "caller \(caller)")
            for row in rows {
                #expect(try row.int(0) == caller * 2)
                #expect(try row.text(1) == "caller \(caller)")
                #expect(row.optionalText(2) == nil)
            }
        }
    }

    @Test("A failing statement fails alone: the callers sent with it get their rows")
    func failureStaysWithItsStatement() async throws {
        let pool = try await TestDatabase.pool(.postgres, size: 1)
        defer { pool.close() }
        // Sixty callers at once: the pipeline's thread takes what was handed over since it last looked, so
        // statements go out many to a write and share its sync point, and a failure aborts the others sent
        // with it (taking out the resending fails this test).
        async let slow = pool.query("SELECT pg_sleep(0.3)")
        let results = await withTaskGroup(of: (Int, Result<Int, SQLError>).self) { group in
            for caller in 0..<60 {
                group.addTask {
                    let sql =
                        switch caller % 10 {
                        case 0: "SELECT 1 / CAST($1 AS INTEGER)"  // 1 / 0: fails when run
                        case 5: "SELECT no_such_column + CAST($1 AS INTEGER)"  // fails when prepared
                        default: "SELECT 600 / (CAST($1 AS INTEGER) + 1)"
                        }
                    do {
                        return (caller, .success(try await pool.query(sql, [.int(caller % 10 == 0 ? 0 : caller)])[0].int(0)))
                    } catch let error as SQLError {
                        return (caller, .failure(error))
                    } catch {
                        return (caller, .failure(SQLError(code: "unexpected", message: "\(error)")))
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        _ = try await slow
        for (caller, result) in results {
            switch caller % 10 {
            case 0: #expect(result.failureCode == "22012", "caller \(caller): \(result)")
            case 5: #expect(result.failureCode == "42703", "caller \(caller): \(result)")
            default: #expect((try? result.get()) == 600 / (caller + 1), "caller \(caller): \(result)")
            }
        }
    }

    @Test("A cancelled caller is answered at once, its statement stopped on the server: the connection serves the next")
    func cancelStopsTheStatementOnTheServer() async throws {
        let pool = try await TestDatabase.pool(.postgres, size: 1)
        defer { pool.close() }
        let clock = ContinuousClock()
        let start = clock.now
        let hanging = Task { try await pool.query("SELECT pg_sleep(30)") }
        try await Task.sleep(for: .milliseconds(100))
        hanging.cancel()
        await #expect(throws: CancellationError.self) { try await hanging.value }
        // One connection: this statement waits behind the other until the server stops it.
        let answer = try await pool.query("SELECT 41 + 1")[0].int(0)
        #expect(answer == 42)
        // Well short of pg_sleep's 30 s, and loose for a busy machine.
        #expect(start.duration(to: clock.now) < .seconds(15), "the cancelled statement ran on")
    }

    @Test("A cancelled statement queued behind a running one is stopped on the server once it runs")
    func cancelBehindAnother() async throws {
        let (pipeline, url) = try await Self.pipeline(connections: 1)
        defer { pipeline.close() }
        let first = Task { try await pipeline.rows("SELECT pg_sleep(0.5)", []) }
        try await Self.whenRunning("SELECT pg_sleep(0.5)", on: url)
        let second = Task { try await pipeline.rows("SELECT pg_sleep(30)", []) }
        // Written to the one connection, behind the first: only then is its cancel the server's business.
        while pipeline.statementsSent.load(ordering: .acquiring) < 2 { await Task.yield() }
        second.cancel()
        await #expect(throws: CancellationError.self) { try await second.value }
        _ = try await first.value
        let clock = ContinuousClock()
        let start = clock.now
        // This waits behind the cancelled statement until the server stops it.
        #expect(try await pipeline.rows("SELECT 41 + 1", [])[0].int(0) == 42)
        // Well short of pg_sleep's 30 s, and loose for a busy machine.
        #expect(start.duration(to: clock.now) < .seconds(15), "the cancelled statement ran on once it was first")
    }

    @Test("Connections the server ends are made again: a statement in flight fails with the server's reason, later ones are answered")
    func reconnectsAfterTheServerEndsItsConnections() async throws {
        let (pool, url) = try await Self.pipelinedPool(connections: 2)
        defer { pool.close() }
        #expect(try await pool.query("SELECT 1")[0].int(0) == 1)
        let inFlight = Task { try await pool.query("SELECT pg_sleep(30)") }
        try await Self.whenRunning("SELECT pg_sleep(30)", on: url)
        let ended = try await onOwnThread {
            try PostgresConnection(url: url).query(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
                [])[0].int(0)
        }
        #expect(ended >= 2)
        // The connection's end as the server words it (57P01), or as libpq does (08006); never a hang.
        let lost = await #expect(throws: SQLError.self) { try await inFlight.value }
        #expect(lost?.code == "57P01" || lost?.code == "08006", "\(String(describing: lost))")
        var failures: [SQLError] = []
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .seconds(20))
        while clock.now < deadline {
            do {
                #expect(try await pool.query("SELECT CAST($1 AS INTEGER)", [.int(7)])[0].int(0) == 7)
                break
            } catch let error as SQLError {
                failures.append(error)
                // Waits for the server, which a test clock cannot move.
                try await Task.sleep(for: .milliseconds(50))
            }
        }
        #expect(try await pool.query("SELECT 2")[0].int(0) == 2, "never answered again after \(failures.count) failures")
        #expect(failures.allSatisfy { $0.code == "57P01" || $0.code == "08006" }, "\(failures)")
    }

    @Test("Closing the pool answers a statement in flight with a clear error, and does not wait for it")
    func closeAnswersWhatIsInFlight() async throws {
        let (pool, url) = try await Self.pipelinedPool(connections: 1)
        let inFlight = Task { try await pool.query("SELECT pg_sleep(30)") }
        try await Self.whenRunning("SELECT pg_sleep(30)", on: url)
        let clock = ContinuousClock()
        let start = clock.now
        try await onOwnThread { pool.close() }
        let error = await #expect(throws: SQLError.self) { try await inFlight.value }
        #expect(error?.code == "closed")
        // Well short of pg_sleep's 30 s, and loose for a busy machine.
        #expect(start.duration(to: clock.now) < .seconds(15), "closing waited for the statement")
    }

    @Test("After the pool closes, a read fails with a clear error; a text with a NUL is refused, never cut")
    func closedAndRefused() async throws {
        let pool = try await TestDatabase.pool(.postgres, size: 1)
        await #expect(throws: SQLError(code: "22021", message: "a text parameter holds a NUL byte, which PostgreSQL cannot store")) {
            try await pool.query("SELECT CAST($1 AS TEXT)", [.text("a\u{0}b")])
        }
        pool.close()
        let error = await #expect(throws: SQLError.self) { try await pool.query("SELECT 1") }
        #expect(error?.code == "closed")
    }

    @Test("Reads started one after another in a burst reach the pipeline in one hand-over, at its end; without one, one each")
    func burstHandsOverOnce() async throws {
        let (pipeline, _) = try await Self.pipeline(connections: 2)
        defer { pipeline.close() }
        // Each read runs on this thread until it waits for its answer, as a page's loads start.
        func startReads(_ numbers: ClosedRange<Int>) -> [Task<Int, any Error>] {
            numbers.map { number in Task.immediate { try await pipeline.rows("SELECT CAST($1 AS INTEGER)", [.int(number)])[0].int(0) } }
        }
        var reads: [Task<Int, any Error>] = []
        StatementBurst.together {
            reads = startReads(1...2)
            // A burst inside a burst: the outer one hands over.
            StatementBurst.together { reads += startReads(3...3) }
            #expect(pipeline.handOvers.load(ordering: .relaxed) == 0, "a statement was handed over before its burst ended")
        }
        #expect(pipeline.handOvers.load(ordering: .relaxed) == 1)
        for (index, read) in reads.enumerated() { #expect(try await read.value == index + 1) }

        let alone = startReads(4...6)
        #expect(pipeline.handOvers.load(ordering: .relaxed) == 4)
        for (index, read) in alone.enumerated() { #expect(try await read.value == index + 4) }
    }

    @Test("A burst's reads on a closed pipeline fail with the pool's clear error")
    func burstOnClosedPipeline() async throws {
        let (pipeline, _) = try await Self.pipeline(connections: 1)
        try await onOwnThread { pipeline.close() }
        var read: Task<[SQLRow], any Error>?
        StatementBurst.together { read = Task.immediate { try await pipeline.rows("SELECT 1", []) } }
        let error = await #expect(throws: SQLError.self) { try await read?.value }
        #expect(error?.code == "closed")
        #expect(pipeline.handOvers.load(ordering: .relaxed) == 0)
    }

    /// A pipeline of `connections` connections to a new database, and the database's URL.
    static func pipeline(connections: Int) async throws -> (PostgresPipeline, url: String) {
        let url = try await newDatabaseURL()
        return (try await onOwnThread { try PostgresPipeline(url: url, connections: connections) }, url)
    }

    /// A new database on the tests' PostgreSQL.
    static func newDatabaseURL() async throws -> String {
        guard case .postgres(let url) = try await TestDatabase.newLocation(.postgres) else { preconditionFailure("a PostgreSQL location") }
        return url
    }

    /// A pool on a new database whose reads go through a pipeline of `connections` connections.
    static func pipelinedPool(connections: Int) async throws -> (ConnectionPool, url: String) {
        let url = try await newDatabaseURL()
        let pool = try await ConnectionPool.opening(
            size: 1, dialect: .postgres, pipeline: { () throws(SQLError) in try PostgresPipeline(url: url, connections: connections) }
        ) { () throws(SQLError) in try PostgresConnection(url: url) }
        return (pool, url)
    }

    /// Returns once the server runs `sql` on the database at `url`: the gate a test waits at
    /// before acting on a statement in flight. Only that database's statements count: tests
    /// running at the same time send the same text to databases of their own.
    static func whenRunning(_ sql: String, on url: String) async throws {
        let running = try await onOwnThread { () -> Bool in
            let watcher = try PostgresConnection(url: url)
            for _ in 0..<1_000 {
                let count = try watcher.query(
                    "SELECT count(*) FROM pg_stat_activity WHERE query = $1 AND state = 'active' AND datname = current_database()",
                    [.text(sql)])[0].int(0)
                if count > 0 { return true }
                // Waits for the server, which a test clock cannot move.
                usleep(20_000)
            }
            return false
        }
        #expect(running, "the server never ran \(sql)")
    }
}

extension Result where Failure == SQLError {
    fileprivate var failureCode: String? {
        guard case .failure(let error) = self else { return nil }
        return error.code
    }
}
