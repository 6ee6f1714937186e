/// The SQL spoken by a connection: statements are written once with `$1`
/// parameters and portable syntax; where the engines differ, code asks.
public enum SQLDialect: String, Sendable {
    case sqlite, postgres
}

/// One open connection to a database, used by one thread at a time.
///
/// Connections are not `Sendable`: a `ConnectionPool` opens each on its own
/// thread and keeps it there. Statements are prepared once per connection
/// and reused.
public protocol SQLConnection: AnyObject {
    var dialect: SQLDialect { get }

    /// Runs one statement with its parameters bound to `$1`, `$2`, …, and
    /// returns the rows it produced (none for most writes).
    func query(_ sql: String, _ parameters: [SQLValue]) throws(SQLError) -> [SQLRow]

    /// Runs statements separated by semicolons, without parameters: schema scripts.
    func executeScript(_ sql: String) throws(SQLError)

    /// Something another thread may call to stop the statement running now.
    func makeInterrupter() -> SQLInterrupter
}

/// Stops a connection's running statement from another thread.
public struct SQLInterrupter: Sendable {
    public let interrupt: @Sendable () -> Void

    public init(_ interrupt: @escaping @Sendable () -> Void) { self.interrupt = interrupt }
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
