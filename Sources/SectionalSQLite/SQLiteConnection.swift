import CSQLite
import SectionalSQL

#if canImport(Glibc)
    import Glibc
#endif

/// One SQLite connection, opened in WAL mode with foreign keys on and a
/// busy timeout; its statements are prepared once and kept.
///
/// `synchronous=FULL`: in WAL mode every commit is synced before it is
/// acknowledged, so a write the server has answered survives power loss,
/// not just a crash of the process (`NORMAL` would risk the last commits).
public final class SQLiteConnection: SQLConnection {
    /// SQLite.
    public let dialect = SQLDialect.sqlite
    /// Stops this connection's current job from another thread.
    public let interrupter: SQLInterrupter
    private let db: OpaquePointer
    /// What the busy handler reads: kept as long as the connection.
    private let busyWait: BusyWait
    /// Prepared statements by their SQL, searched in order: a program's
    /// statements are a few dozen literals, and comparing one with each of
    /// them (equal lengths are rare, the same literal is equal at once) costs
    /// less than hashing its text, about 500 instructions a query. Not
    /// checked for overlapping access at run time: a connection is used by
    /// one thread at a time (`SQLConnection`), and no access to the list
    /// spans a call that reaches it again.
    @exclusivity(unchecked) private var statements: [(sql: String, statement: OpaquePointer)] = []

    /// Opens (creating if needed) the database at `path`.
    /// - Parameters:
    ///   - path: the file; `:memory:` for a private database in memory, or
    ///     `SQLiteConnection.sharedMemory(named:)` for one that every
    ///     connection of the process opening that name shares.
    ///   - readOnly: a reader's connection: it refuses writes
    ///     (`query_only`) and leaves the file's journal mode to the writer.
    ///   - busyTimeoutMilliseconds: how long a write waits for another writer's lock.
    /// - Throws: `SQLError` when the file cannot be opened or created.
    public init(path: String, readOnly: Bool = false, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLError) {
        Self.configureOnce
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_close_v2(handle)
            throw SQLError(code: Self.codeName(status), message: "cannot open \(path): \(message)")
        }
        db = handle
        // sqlite3_interrupt is the one call safe from any thread while the connection is in use.
        let interruptHandle = InterruptHandle(handle)
        interrupter = SQLInterrupter { sqlite3_interrupt(interruptHandle.db) }
        // Every 1,000 steps of the VM, stop if asked, or if the reading task
        // was cancelled: this also catches an interrupt that came just before
        // the statement began to step. A point read ends before the first check.
        sqlite3_progress_handler(
            db, 1_000, { context in Unmanaged<SQLInterrupter>.fromOpaque(context!).takeUnretainedValue().shouldStop ? 1 : 0 },
            Unmanaged.passUnretained(interrupter).toOpaque())
        // A lock held by another connection is waited for a millisecond at a
        // time, and no longer once the work is to stop: a read waiting on the
        // request's thread (a database in memory has no WAL) is cut like one that steps.
        busyWait = BusyWait(interrupter: interrupter, limit: busyTimeoutMilliseconds)
        sqlite3_busy_handler(
            db, { context, attempts in Unmanaged<BusyWait>.fromOpaque(context!).takeUnretainedValue().waitAgain(after: attempts) ? 1 : 0 },
            Unmanaged.passUnretained(busyWait).toOpaque())
        if readOnly {
            try executeScript("PRAGMA query_only = ON")
            return
        }
        try executeScript("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL")
        // WAL is a property of the file: set once, by whoever finds it unset
        // (setting it while another connection opens can fail with BUSY).
        if try query("PRAGMA journal_mode", []).first?.optionalText(0) != "wal" {
            _ = try query("PRAGMA journal_mode = WAL", [])
        }
    }

    /// SQLite's process-wide settings, made before its first connection:
    /// no count of its memory, whose one mutex the reading threads took at
    /// every allocation (a context switch in every few `/feed` requests on
    /// two threads). Too late, when SQLite was started by other code of the
    /// process first, it is left as it is.
    private static let configureOnce: Void = { _ = sectional_sqlite_stop_counting_memory() }()

    /// The path of a database held in memory under `name` (SQLite's `memdb`
    /// file system): every connection of this process that opens it shares
    /// it, and it is gone once the last one closes.
    public static func sharedMemory(named name: String) -> String {
        "file:/\(name)?vfs=memdb"
    }

    deinit {
        // A thread's table of readers keeps the interrupter past its connection (`CallerReaders`).
        interrupter.connectionClosed()
        for entry in statements { sqlite3_finalize(entry.statement) }
        sqlite3_close_v2(db)
    }

    /// Binds text by its byte length, never as a C string: a NUL inside is
    /// stored, not taken for the end (`a\0' OR 1=1` would bind as `a`).
    private static func bind(_ text: String, to statement: OpaquePointer, at index: Int32) -> Int32 {
        var text = text
        return text.withUTF8 { bytes in
            // An empty buffer may have no address, and a null pointer binds NULL.
            guard let address = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, index, "", 0, sectional_sqlite_transient())
            }
            return address.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
                sqlite3_bind_text(statement, index, $0, Int32(bytes.count), sectional_sqlite_transient())
            }
        }
    }

    /// Runs one statement, prepared once and kept, with `$1`… bound by number.
    public func query(_ sql: String, _ parameters: [SQLValue]) throws(SQLError) -> [SQLRow] {
        guard !interrupter.shouldStop else { throw SQLInterrupter.interrupted }
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32 =
                switch value {
                case .null: sqlite3_bind_null(statement, index)
                case .integer(let number): sqlite3_bind_int64(statement, index, number)
                case .text(let text): Self.bind(text, to: statement, at: index)
                }
            guard status == SQLITE_OK else { throw error(status) }
        }
        var values: [SQLValue] = []
        var count = 0
        let columns = sqlite3_column_count(statement)
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return SQLRow.rows(of: values, columns: Int(columns), count: count) }
            guard status == SQLITE_ROW else { throw error(status) }
            // Room for a page's usual result at once, not grown row by row.
            if count == 0 { values.reserveCapacity(16 * Int(columns)) }
            append(row: statement, columns: columns, to: &values)
            count += 1
        }
    }

    /// Runs statements separated by semicolons, without parameters.
    public func executeScript(_ sql: String) throws(SQLError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(db, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            sqlite3_free(message)
            throw SQLError(code: Self.codeName(status), message: text)
        }
    }

    public func endTransaction() {
        guard sqlite3_get_autocommit(db) == 0 else { return }
        // The prepared COMMIT, stepped without the check `query` makes first: a cancelled caller ends it too.
        if let commit = try? prepared("COMMIT") {
            let status = sqlite3_step(commit)
            sqlite3_reset(commit)
            if status == SQLITE_DONE { return }
        }
        sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
    }

    private func prepared(_ sql: String) throws(SQLError) -> OpaquePointer {
        // Lengths first: texts of one length are rare, and `==` compared unequal texts byte by byte.
        let length = sql.utf8.count
        for entry in statements where entry.sql.utf8.count == length && entry.sql == sql { return entry.statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(db, Self.numberedParameters(sql), -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        statements.append((sql, statement))
        return statement
    }

    private func append(row statement: OpaquePointer, columns: Int32, to values: inout [SQLValue]) {
        for column in 0..<columns {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_NULL: values.append(.null)
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
            default:
                guard let text = sqlite3_column_text(statement, column) else {
                    values.append(.text(""))
                    continue
                }
                let count = Int(sqlite3_column_bytes(statement, column))
                values.append(.text(String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)))
            }
        }
    }

    private func error(_ status: Int32) -> SQLError {
        SQLError(code: Self.codeName(status), message: String(cString: sqlite3_errmsg(db)))
    }

    /// Statements are written with PostgreSQL's `$1`; SQLite reads `$1` as
    /// a *named* parameter numbered by first appearance, so `$2 … $1` would
    /// swap values. `?1` is positional.
    static func numberedParameters(_ sql: String) -> String {
        var result = ""
        result.reserveCapacity(sql.utf8.count)
        var previous: Character = " "
        for character in sql {
            if character == "$" && !(previous.isLetter || previous.isNumber || previous == "_") {
                result.append("?")
            } else {
                result.append(character)
            }
            previous = character
        }
        return result
    }

    static func codeName(_ status: Int32) -> String {
        switch status & 0xFF {
        case SQLITE_BUSY: "SQLITE_BUSY"
        case SQLITE_LOCKED: "SQLITE_LOCKED"
        case SQLITE_INTERRUPT: "SQLITE_INTERRUPT"
        case SQLITE_CONSTRAINT: "SQLITE_CONSTRAINT"
        case SQLITE_CANTOPEN: "SQLITE_CANTOPEN"
        case SQLITE_READONLY: "SQLITE_READONLY"
        case SQLITE_FULL: "SQLITE_FULL"
        case SQLITE_CORRUPT: "SQLITE_CORRUPT"
        case SQLITE_NOTADB: "SQLITE_NOTADB"
        default: "SQLITE_\(status)"
        }
    }
}

/// How long a connection waits for another's lock: a millisecond a try, up
/// to `limit` tries, none once its work is to stop.
private final class BusyWait {
    let interrupter: SQLInterrupter
    let limit: Int32

    init(interrupter: SQLInterrupter, limit: Int32) {
        self.interrupter = interrupter
        self.limit = limit
    }

    func waitAgain(after attempts: Int32) -> Bool {
        guard attempts < limit, !interrupter.shouldStop else { return false }
        usleep(1_000)
        return true
    }
}

/// The connection's handle, shared with the thread that may interrupt it.
private struct InterruptHandle: @unchecked Sendable {
    let db: OpaquePointer
    init(_ db: OpaquePointer) { self.db = db }
}

/// A pool made for SQLite.
extension ConnectionPool {
    /// A pool for the SQLite file at `path`, created when missing: one
    /// writer connection, on which writes run one at a time, and a
    /// read-only connection on each thread that reads, where it reads.
    /// - Throws: when the file cannot be opened or made a database.
    public static func sqlite(_ path: String) throws(SQLError) -> ConnectionPool {
        try ConnectionPool(size: 1, dialect: .sqlite, readers: sqliteReaders(path), open: sqliteWriter(path))
    }

    /// The same pool, opened from async code as `opening(size:dialect:readers:open:)` opens one.
    public static func openingSQLite(_ path: String) async throws(SQLError) -> ConnectionPool {
        try await opening(size: 1, dialect: .sqlite, readers: sqliteReaders(path), open: sqliteWriter(path))
    }

    private static func sqliteReaders(_ path: String) -> @Sendable () throws(SQLError) -> any SQLConnection {
        { () throws(SQLError) in try SQLiteConnection(path: path, readOnly: true) }
    }

    private static func sqliteWriter(_ path: String) -> @Sendable () throws(SQLError) -> any SQLConnection {
        { () throws(SQLError) in try SQLiteConnection(path: path) }
    }
}
