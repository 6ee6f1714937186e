import Synchronization

/// The SQL spoken by a connection: statements are written once with `$1`
/// parameters and portable syntax; where the engines differ, code asks.
public enum SQLDialect: String, Sendable {
    /// SQLite 3.
    case sqlite
    /// PostgreSQL.
    case postgres
}

/// One open connection to a database, used by one thread at a time.
///
/// Connections are not `Sendable`: a `ConnectionPool` opens each on its own
/// thread and keeps it there. Statements are prepared once per connection
/// and reused.
public protocol SQLConnection: AnyObject {
    /// The engine this connection speaks to.
    var dialect: SQLDialect { get }

    /// Runs one statement with its parameters bound to `$1`, `$2`, …, and
    /// returns the rows it produced (none for most writes).
    func query(_ sql: String, _ parameters: [SQLValue]) throws(SQLError) -> [SQLRow]

    /// Runs statements separated by semicolons, without parameters: schema scripts.
    func executeScript(_ sql: String) throws(SQLError)

    /// What another thread calls to stop this connection's current job.
    var interrupter: SQLInterrupter { get }

    /// Ends the transaction the connection is in, committing it, or rolling
    /// it back when it cannot be committed; nothing when none is open. It
    /// runs whatever the calling task's state: a caller cancelled must not
    /// leave the connection in its transaction.
    func endTransaction()
}

extension SQLConnection {
    public func endTransaction() {
        do { try executeScript("COMMIT") } catch { try? executeScript("ROLLBACK") }
    }
}

/// Stops a connection's work from another thread: the statement running
/// now, and any the same job starts after.
///
/// An engine's own interrupt is not enough alone: SQLite forgets an
/// interrupt that arrives before its statement starts stepping, and
/// PostgreSQL one that arrives before its query. So a connection also
/// checks `isRequested` before each statement (SQLite, `shouldStop`, also
/// while stepping); the pool clears it when the next job starts.
public final class SQLInterrupter: Sendable {
    private let requested = Atomic<Bool>(false)
    /// The engine's interrupt; `nil` once its connection has closed, so that
    /// a late interrupt never reaches a freed handle. Under a lock: an
    /// interrupt from another thread and the close must not interleave.
    private let engineInterrupt: Mutex<(@Sendable () -> Void)?>

    /// An interrupter that calls `engineInterrupt` (e.g. `sqlite3_interrupt`) after raising its flag.
    public init(_ engineInterrupt: @escaping @Sendable () -> Void) { self.engineInterrupt = Mutex(engineInterrupt) }

    /// The connection is closing: from now on an interrupt reaches nothing but its flag.
    public func connectionClosed() { engineInterrupt.withLock { $0 = nil } }

    /// Whether the current job was asked to stop.
    public var isRequested: Bool { requested.load(ordering: .acquiring) }

    /// Whether the statement running now should stop: asked to, or, for a
    /// read on its caller's thread (`ConnectionPool.read`), its caller's
    /// task was cancelled. Checked where the engine can stop (SQLite's
    /// progress handler), so a read needs no cancellation handler of its own.
    public var shouldStop: Bool {
        isRequested || withUnsafeCurrentTask { $0?.isCancelled ?? false }
    }

    /// Asks the current job to stop.
    public func interrupt() {
        requested.store(true, ordering: .releasing)
        engineInterrupt.withLock { $0?() }
    }

    /// Clears the request: a new job starts.
    public func reset() { requested.store(false, ordering: .releasing) }

    /// The error a statement stopped this way reports.
    public static let interrupted = SQLError(code: "interrupted", message: "the statement was interrupted: its caller stopped waiting")
}

extension SQLConnection {
    /// Runs a statement whose rows are not needed.
    public func execute(_ sql: String, _ parameters: [SQLValue] = []) throws(SQLError) {
        _ = try query(sql, parameters)
    }

    /// Runs `body` in a transaction that takes the write lock at once
    /// (SQLite `BEGIN IMMEDIATE`: a transaction that reads first and writes
    /// later could fail with a stale snapshot); rolled back if `body` throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try executeScript(dialect == .sqlite ? "BEGIN IMMEDIATE" : "BEGIN")
        do {
            let result = try body()
            try executeScript("COMMIT")
            return result
        } catch {
            try? executeScript("ROLLBACK")
            throw error
        }
    }
}
