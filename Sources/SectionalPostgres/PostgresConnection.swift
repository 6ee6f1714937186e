import CLibPQ
import Dispatch
import SectionalSQL

#if canImport(Glibc)
    import Glibc
#endif

/// One PostgreSQL connection through libpq's blocking calls (run on a pool
/// thread, they cost less than libpq's non-blocking API and pin nothing).
/// Statements are prepared once per connection and then executed by name.
public final class PostgresConnection: SQLConnection {
    /// PostgreSQL.
    public let dialect = SQLDialect.postgres
    /// Stops this connection's current job from another thread.
    public let interrupter: SQLInterrupter
    private let connection: OpaquePointer
    /// libpq's functions, for this connection and its listener.
    let pq: sectional_libpq
    /// For the listener in this module.
    var raw: OpaquePointer { connection }
    /// For the backend of the moment: made again after a reconnect.
    private var cancel: CancelHandle
    private var statements: [String: String] = [:]

    /// Connects with a libpq connection string or URL, e.g. `postgres://app@127.0.0.1:5432/feed`.
    /// - Throws: `SQLError` when the server cannot be reached or refuses.
    public init(url: String) throws(SQLError) {
        let pq = try LibPQ.functions()
        self.pq = pq
        guard let connection = pq.PQconnectdb(url) else { throw SQLError(code: "08001", message: "libpq could not allocate a connection") }
        guard pq.PQstatus(connection) == CONNECTION_OK else {
            let message = sectional_libpq.text(pq.PQerrorMessage(connection))
            pq.PQfinish(connection)
            throw SQLError(code: "08001", message: message)
        }
        self.connection = connection
        cancel = CancelHandle(pq.PQgetCancel(connection), free: pq.PQfreeCancel)
        // The worker cancels its own query when asked (see `awaitResult`): the
        // asking thread never waits on the network.
        interrupter = SQLInterrupter {}
        withUnsafePointer(to: pq) { sectional_pq_silence_notices($0, connection) }
    }

    deinit { pq.PQfinish(connection) }

    /// Runs one statement, prepared once per connection, with `$1`… as text parameters.
    public func query(_ sql: String, _ parameters: [SQLValue]) throws(SQLError) -> [SQLRow] {
        // A cancel that came before the query was sent would reach a server with nothing to cancel.
        guard !interrupter.isRequested else { throw SQLInterrupter.interrupted }
        try sectional_libpq.refuseNUL(in: parameters)
        try reconnectIfBroken()
        let name = try prepared(sql, parameterCount: parameters.count)
        let sent = sectional_libpq.withCStrings(parameters) { values in
            pq.PQsendQueryPrepared(connection, name, Int32(parameters.count), values, nil, nil, 0)
        }
        guard sent == 1 else { throw SQLError(code: "08006", message: lastError) }
        return try rows(of: awaitResult())
    }

    /// Waits for the query sent, cancelling it when the interrupter asks.
    ///
    /// A cancel request that reaches the server before it starts the query
    /// is ignored, so while asked and still busy it is sent again every
    /// tick: the query cannot slip past it.
    private func awaitResult() -> OpaquePointer? {
        let socket = pq.PQsocket(connection)
        var lastCancel: UInt64 = 0
        while pq.PQisBusy(connection) == 1 {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&descriptor, 1, 20)
            if interrupter.isRequested, let handle = cancel.handle {
                let now = DispatchTime.now().uptimeNanoseconds
                if now - lastCancel > 100_000_000 {
                    lastCancel = now
                    var message = [CChar](repeating: 0, count: 256)
                    _ = pq.PQcancel(handle, &message, Int32(message.count))
                }
            }
            guard pq.PQconsumeInput(connection) == 1 else { break }
        }
        // The statement's result, then nil; keep the last (an error, if any, comes last).
        var result: OpaquePointer?
        while let next = pq.PQgetResult(connection) {
            if let result { pq.PQclear(result) }
            result = next
        }
        return result
    }

    /// Runs statements separated by semicolons, without parameters.
    public func executeScript(_ sql: String) throws(SQLError) {
        try reconnectIfBroken()
        _ = try rows(of: pq.PQexec(connection, sql))
    }

    /// After a server restart, a failover or a dropped connection, the next
    /// statement reconnects (and prepares its statements again) instead of
    /// failing until the process restarts.
    private func reconnectIfBroken() throws(SQLError) {
        guard pq.PQstatus(connection) != CONNECTION_OK else { return }
        statements = [:]
        pq.PQreset(connection)
        guard pq.PQstatus(connection) == CONNECTION_OK else {
            throw SQLError(code: "08006", message: lastError)
        }
        withUnsafePointer(to: pq) { sectional_pq_silence_notices($0, connection) }
        cancel = CancelHandle(pq.PQgetCancel(connection), free: pq.PQfreeCancel)
    }

    private func prepared(_ sql: String, parameterCount: Int) throws(SQLError) -> String {
        if let name = statements[sql] { return name }
        let name = "s\(statements.count)"
        _ = try rows(of: pq.PQprepare(connection, name, sql, Int32(parameterCount), nil))
        statements[sql] = name
        return name
    }

    private func rows(of result: OpaquePointer?) throws(SQLError) -> [SQLRow] { try pq.rows(of: result, on: connection) }

    /// The connection's last error, as `text` words it.
    private var lastError: String { sectional_libpq.text(pq.PQerrorMessage(connection)) }
}

/// libpq's cancel object for one backend, freed when the last holder lets go.
final class CancelHandle: @unchecked Sendable {
    let handle: OpaquePointer?
    private let free: @convention(c) (OpaquePointer?) -> Void
    init(_ handle: OpaquePointer?, free: @escaping @convention(c) (OpaquePointer?) -> Void) {
        self.handle = handle
        self.free = free
    }
    deinit { free(handle) }
}
