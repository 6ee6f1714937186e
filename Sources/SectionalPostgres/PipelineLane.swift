import CLibPQ
import Dispatch
import SectionalSQL
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// One connection of a `PostgresPipeline`, in pipeline mode and
/// non-blocking, with what it owes in the order it was sent. Used by the
/// pipeline's thread alone; when the connection breaks, a thread of its own
/// connects again and hands the new connection over.
final class PipelineLane {
    /// A statement finished: its caller's answer, and whether it stopped for
    /// another statement's sake (and may be sent again).
    typealias Finished = (statement: PipelinedStatement, result: Result<[SQLRow], SQLError>, stoppedForAnother: Bool)

    /// What the connection owes, in order: every sent message's results.
    private enum Owed {
        case preparation(sql: String)
        case statement(PipelinedStatement)
        case sync
    }

    private let url: String
    private let pq: sectional_libpq
    private let wake: @Sendable () -> Void
    private var connection: OpaquePointer?
    private var cancel: CancelHandle?
    private var prepared: [String: String] = [:]
    private var preparedCount = 0
    private var owed: [Owed] = []
    private var owedStart = 0
    private var added: [PipelinedStatement] = []
    /// The first statement's result, kept until libpq says its results are done.
    private var pending: Result<OpaquePointer, SQLError>?
    /// A failed preparation's error: the statement behind it, alone in its
    /// segment, is aborted, and this is its error.
    private var preparationError: SQLError?
    private var lastCancel: UInt64 = 0
    private let reconnection: Reconnection
    /// Statements sent and not answered yet.
    private(set) var inFlight = 0
    /// Whether output waits for the socket to take it.
    private(set) var waitsToFlush = false

    /// Opens `count` lanes to `url`; none is left open when one fails.
    static func open(_ count: Int, to url: String, wake: @escaping @Sendable () -> Void) throws(SQLError) -> [PipelineLane] {
        var lanes: [PipelineLane] = []
        for _ in 0..<count {
            do throws(SQLError) {
                lanes.append(try PipelineLane(url: url, wake: wake))
            } catch {
                lanes.forEach { $0.close() }
                throw error
            }
        }
        return lanes
    }

    private init(url: String, wake: @escaping @Sendable () -> Void) throws(SQLError) {
        self.url = url
        self.wake = wake
        pq = try LibPQ.functions()
        reconnection = Reconnection()
        adopt(try Self.connect(url, pq))
    }

    /// The connection's socket; `nil` while it connects again.
    var socket: Int32? {
        guard let connection else { return nil }
        let socket = pq.PQsocket(connection)
        return socket < 0 ? nil : socket
    }

    /// Adds a statement to send with the next `sendAdded()`.
    func add(_ statement: PipelinedStatement) {
        added.append(statement)
        inFlight += 1
    }

    /// Sends the statements added, in one write. Those already prepared on
    /// this connection share one sync point, and so an implicit transaction:
    /// one failing aborts the others, which are then sent again. A statement
    /// new to the connection goes with its preparation behind a sync point
    /// of its own, so that a statement that cannot be prepared fails alone.
    func sendAdded() {
        guard !added.isEmpty else { return }
        defer { added.removeAll(keepingCapacity: true) }
        guard let connection else {
            inFlight -= added.count
            return added.forEach { $0.fail(Self.notConnected) }
        }
        var unsynced = false
        for (index, statement) in added.enumerated() {
            let isNew = prepared[statement.sql] == nil
            // A new statement's segment holds its preparation and itself alone.
            let sent = (!isNew || !unsynced || sync(connection)) && enqueue(statement, on: connection) && (!isNew || sync(connection))
            guard sent else { return answer(breakConnection(adding: Array(added[index...]))) }
            unsynced = !isNew
        }
        guard !unsynced || sync(connection) else { return answer(breakConnection()) }
        flush(connection)
    }

    /// Reads what has arrived and returns the statements it finished.
    func readAnswers() -> [Finished] {
        guard let connection else { return [] }
        guard pq.PQconsumeInput(connection) == 1 else { return breakConnection() }
        if waitsToFlush { flush(connection) }
        var finished: [Finished] = []
        let cancelledLately = DispatchTime.now().uptimeNanoseconds - lastCancel < 1_000_000_000
        while owedStart < owed.count, self.connection != nil, pq.PQisBusy(connection) == 0 {
            let result = pq.PQgetResult(connection)
            switch owed[owedStart] {
            case .sync:
                // A sync point's result is never followed by a NULL; anything else there means the
                // answers no longer match what was sent.
                guard let result else { return finished + breakConnection() }
                guard pq.PQresultStatus(result) == PGRES_PIPELINE_SYNC else {
                    pq.PQclear(result)
                    return finished + breakConnection()
                }
                pq.PQclear(result)
                preparationError = nil
                owedStart += 1
            case .preparation(let sql):
                guard let result else {
                    owedStart += 1
                    continue
                }
                if pq.PQresultStatus(result) != PGRES_COMMAND_OK {
                    preparationError = pq.error(of: result)
                    prepared[sql] = nil
                }
                pq.PQclear(result)
            case .statement(let statement):
                guard let result else {
                    owedStart += 1
                    inFlight -= 1
                    finished.append(finish(statement, cancelledLately: cancelledLately))
                    continue
                }
                keep(result)
            }
        }
        compactOwed()
        return finished
    }

    /// Cancels the statement running on the server when its caller has
    /// stopped waiting; again every 100 ms while it still runs.
    /// - Returns: whether an abandoned statement is still owed: one behind
    ///   others is cancelled once it is first.
    func cancelAbandonedStatement() -> Bool {
        guard connection != nil, owesAbandonedStatement else { return false }
        let now = DispatchTime.now().uptimeNanoseconds
        guard firstStatement?.abandoned == true, now - lastCancel > 100_000_000, let handle = cancel?.handle else { return true }
        lastCancel = now
        var message = [CChar](repeating: 0, count: 256)
        _ = pq.PQcancel(handle, &message, Int32(message.count))
        return true
    }

    /// Takes a connection made again, if one is waiting.
    func adoptReconnection() {
        guard connection == nil, let made = reconnection.take() else { return }
        adopt(made)
    }

    /// Closes the connection; every statement it owes fails.
    func close() {
        reconnection.close()
        let failed = owedStatements + added
        dropConnection()
        for statement in failed { statement.fail(SQLError.poolClosed) }
    }

    // MARK: Sending and reading

    private func enqueue(_ statement: PipelinedStatement, on connection: OpaquePointer) -> Bool {
        let count = Int32(statement.parameters.count)
        let name: String
        if let known = prepared[statement.sql] {
            name = known
        } else {
            name = "p\(preparedCount)"
            preparedCount += 1
            guard pq.PQsendPrepare(connection, name, statement.sql, count, nil) == 1 else { return false }
            owed.append(.preparation(sql: statement.sql))
            prepared[statement.sql] = name
        }
        let sent = sectional_libpq.withCStrings(statement.parameters) { values in
            pq.PQsendQueryPrepared(connection, name, count, values, nil, nil, 0)
        }
        guard sent == 1 else { return false }
        owed.append(.statement(statement))
        return true
    }

    private func sync(_ connection: OpaquePointer) -> Bool {
        guard pq.PQpipelineSync(connection) == 1 else { return false }
        owed.append(.sync)
        return true
    }

    private func flush(_ connection: OpaquePointer) {
        switch pq.PQflush(connection) {
        case 0: waitsToFlush = false
        case 1: waitsToFlush = true
        default: answer(breakConnection())
        }
    }

    /// A statement's result. An error wins over a result before it, as
    /// libpq may add one; otherwise the first is kept.
    private func keep(_ result: OpaquePointer) {
        if case .success(let earlier) = pending, pq.PQresultStatus(result) == PGRES_FATAL_ERROR {
            pq.PQclear(earlier)
            pending = nil
        }
        guard pending == nil else { return pq.PQclear(result) }
        guard pq.PQresultStatus(result) != PGRES_PIPELINE_ABORTED else {
            pq.PQclear(result)
            // Its own preparation failed, and that is its error; or another statement sent with it did.
            pending = .failure(preparationError ?? Self.aborted)
            return
        }
        pending = .success(result)
    }

    /// The statement's answer once libpq says its results are done.
    private func finish(_ statement: PipelinedStatement, cancelledLately: Bool) -> Finished {
        defer { pending = nil }
        switch pending {
        case .success(let result):
            let rows = Result { () throws(SQLError) in try pq.rows(of: result) }
            // Its preparation, sent with an earlier caller's, failed: prepared again, it says why.
            let unprepared = rows.failed(as: "26000")
            if unprepared { prepared[statement.sql] = nil }
            return (statement, rows, cancelledLately && rows.failed(as: "57014") || unprepared)
        case .failure(let error):
            // Aborted by another statement's failure, or its preparation stopped by a cancel meant for another.
            return (statement, .failure(error), error.code == Self.abortedCode || cancelledLately && error.code == "57014")
        case nil: return (statement, .failure(Self.lost), false)
        }
    }

    private var firstStatement: PipelinedStatement? {
        for case .statement(let statement) in owed[owedStart...] { return statement }
        return nil
    }

    private var owesAbandonedStatement: Bool {
        owed[owedStart...].contains { owed in
            guard case .statement(let statement) = owed else { return false }
            return statement.abandoned
        }
    }

    private var owedStatements: [PipelinedStatement] {
        owed[owedStart...].compactMap { owed in
            guard case .statement(let statement) = owed else { return nil }
            return statement
        }
    }

    private func compactOwed() {
        if owedStart == owed.count {
            owed.removeAll(keepingCapacity: true)
            owedStart = 0
        } else if owedStart > 64 {
            owed.removeFirst(owedStart)
            owedStart = 0
        }
    }

    private func answer(_ finished: [Finished]) {
        for (statement, result, _) in finished { statement.finish(result) }
    }

    // MARK: Connecting

    /// The connection broke (the server restarted, the network failed):
    /// what it owes fails, and a thread of its own connects again.
    private func breakConnection(adding statements: [PipelinedStatement] = []) -> [Finished] {
        let error = SQLError(code: "08006", message: connection.map { sectional_libpq.text(pq.PQerrorMessage($0)) } ?? "the connection broke")
        let failed = (owedStatements + statements).map { ($0, Result<[SQLRow], SQLError>.failure(error), false) }
        dropConnection()
        let (url, functions, wake, reconnection) = (url, pq, wake, reconnection)
        DedicatedThread.start {
            reconnection.connect(then: wake) { () throws(SQLError) in try Self.connect(url, functions) }
        }
        return failed
    }

    private func adopt(_ made: Connection) {
        connection = made.pointer
        cancel = CancelHandle(pq.PQgetCancel(made.pointer), free: pq.PQfreeCancel)
    }

    private func dropConnection() {
        if case .success(let result) = pending { pq.PQclear(result) }
        if let connection { pq.PQfinish(connection) }
        connection = nil
        cancel = nil
        prepared = [:]
        owed = []
        owedStart = 0
        pending = nil
        preparationError = nil
        waitsToFlush = false
        inFlight = 0
    }

    private static func connect(_ url: String, _ pq: sectional_libpq) throws(SQLError) -> Connection {
        guard let made = pq.PQconnectdb(url) else { throw SQLError(code: "08001", message: "libpq could not allocate a connection") }
        guard pq.PQstatus(made) == CONNECTION_OK, pq.PQsetnonblocking(made, 1) == 0, pq.PQenterPipelineMode(made) == 1 else {
            let message = sectional_libpq.text(pq.PQerrorMessage(made))
            pq.PQfinish(made)
            throw SQLError(code: "08001", message: message)
        }
        withUnsafePointer(to: pq) { sectional_pq_silence_notices($0, made) }
        return Connection(pointer: made, finish: pq.PQfinish)
    }

    /// The error of a statement no connection can take now.
    static let notConnected = SQLError(code: "08006", message: "no connection to PostgreSQL: reconnecting")
    private static let lost = SQLError(code: "08006", message: "PostgreSQL sent no result for the statement")
    private static let abortedCode = "pipeline-aborted"
    private static let aborted = SQLError(code: abortedCode, message: "not run: a statement sent with it failed")
}

extension Result<[SQLRow], SQLError> {
    /// Whether it failed with this SQLSTATE: 57014, stopped by a cancel
    /// request; 26000, no such prepared statement.
    fileprivate func failed(as code: String) -> Bool {
        guard case .failure(let error) = self else { return false }
        return error.code == code
    }
}
