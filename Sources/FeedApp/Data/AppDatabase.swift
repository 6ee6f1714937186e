import SectionalAccounts
import SectionalPostgres
import SectionalSQL
import SectionalSQLite
import SectionalSecurity
import SectionalServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Where the app keeps its data: `--database sqlite:PATH`, `postgres://…` or `memory:`.
public enum DatabaseLocation: Equatable, Sendable, CustomStringConvertible {
    case sqlite(path: String)
    case postgres(url: String)
    case memory

    /// A file under `./data/`, created on first start.
    public static let defaultLocation = DatabaseLocation.sqlite(path: "data/sectional.sqlite")

    /// Reads `sqlite:PATH`, `postgres://…` (or `postgresql://…`) or `memory:`; `nil` for anything else,
    /// `sqlite::memory:` included (each connection would get a database of its own: use `memory:`).
    public init?(_ text: String) {
        if text == "memory:" {
            self = .memory
        } else if text.hasPrefix("sqlite:") {
            let path = String(text.dropFirst("sqlite:".count))
            guard !path.isEmpty, path != ":memory:", !path.hasPrefix("file:") else { return nil }
            self = .sqlite(path: path)
        } else if let scheme = ["postgres://", "postgresql://"].first(where: text.hasPrefix), text.count > scheme.count {
            self = .postgres(url: text)
        } else {
            return nil
        }
    }

    /// As the start-up line names it; a PostgreSQL URL without its password.
    public var description: String {
        switch self {
        case .sqlite(let path): "SQLite \(path)"
        case .memory: "SQLite in memory (seeded, not kept)"
        case .postgres(let url): "PostgreSQL " + Self.withoutPassword(url)
        }
    }

    /// `postgres://user:secret@host/db` as `postgres://user:…@host/db`: the
    /// user information ends at the last `@` before the path, and its
    /// password starts at its first `:`.
    static func withoutPassword(_ url: String) -> String {
        guard let schemeEnd = url.firstRange(of: "://")?.upperBound else { return url }
        let authorityEnd = url[schemeEnd...].firstIndex { $0 == "/" || $0 == "?" } ?? url.endIndex
        guard let at = url[schemeEnd..<authorityEnd].lastIndex(of: "@"),
            let colon = url[schemeEnd..<at].firstIndex(of: ":")
        else { return url }
        return String(url[..<url.index(after: colon)]) + "…" + url[at...]
    }
}

/// The app's stores, opened, migrated and seeded, and the key its forms are signed with.
public struct AppData: Sendable {
    public let feed: any FeedStore
    public let day: any DayStore
    public let layouts: any LayoutStore
    public let accounts: any AccountStore
    /// Everyone who could use the app when it opened, by id.
    public let users: [User]
    public let formKey: [UInt8]
    /// The database's connections; `nil` for data a test made up.
    public let pool: ConnectionPool?
    /// How passwords are hashed and checked.
    public let hasher: PasswordHasher

    /// Data from parts, e.g. a test's store in place of one of them.
    public init(
        feed: any FeedStore, day: any DayStore, layouts: any LayoutStore, accounts: any AccountStore, users: [User], formKey: [UInt8],
        pool: ConnectionPool?, hasher: PasswordHasher
    ) {
        self.feed = feed
        self.day = day
        self.layouts = layouts
        self.accounts = accounts
        self.users = users
        self.formKey = formKey
        self.pool = pool
        self.hasher = hasher
    }

    /// The seed data in a SQLite database held in memory, its passwords
    /// hashed with `hasher`: what `--database memory:` serves, through the
    /// same store as a file. Each call makes a database of its own, with a
    /// writer thread that lives until `pool?.close()`.
    /// - Throws: `DatabaseProblem` when SQLite cannot make it.
    public static func memory(hasher: PasswordHasher = PasswordHasher(.minimal)) throws(DatabaseProblem) -> AppData {
        let path = SQLiteConnection.sharedMemory(named: "sectional-\(getpid())-\(memoryDatabases.add(1, ordering: .relaxed).oldValue)")
        do {
            // Prepared on a connection of this thread's, kept open until the
            // pool's own holds the database (it is gone when the last one closes).
            let setup = try SQLiteConnection(path: path)
            let formKey = try prepare(setup, seed: true, hasher: hasher)
            let pool = try ConnectionPool.sqlite(path)
            return make(on: pool, users: try SQLAccountStore.users(setup), formKey: formKey, hasher: hasher)
        } catch {
            throw DatabaseProblem("cannot make the database in memory: \(error)")
        }
    }

    private static let memoryDatabases = Atomic<Int>(1)

    /// Opens `location`, applies pending migrations and, when `seed` and the
    /// database has no users, the demo data. SQLite gets one writer and a
    /// reader on each thread that reads; PostgreSQL `connections` connections.
    /// - Throws: `DatabaseProblem`, one line saying what is wrong.
    public static func open(
        _ location: DatabaseLocation, connections: Int, seed: Bool = true, hasher: PasswordHasher = PasswordHasher()
    ) async throws(DatabaseProblem) -> AppData {
        let pool: ConnectionPool
        do {
            switch location {
            case .memory: return try memory(hasher: hasher)
            case .sqlite(let path):
                try createParentDirectory(of: path)
                pool = try await ConnectionPool.openingSQLite(path)
            case .postgres(let url):
                let withTimeout = url.contains("connect_timeout") ? url : url + (url.contains("?") ? "&" : "?") + "connect_timeout=5"
                pool = try await ConnectionPool.opening(
                    size: connections, dialect: .postgres,
                    pipeline: { () throws(SQLError) in try PostgresPipeline(url: withTimeout, connections: connections) }
                ) { () throws(SQLError) in try PostgresConnection(url: withTimeout) }
            }
        } catch let error as DatabaseProblem {
            throw error
        } catch {
            throw DatabaseProblem("cannot open \(location): \(error)")
        }
        do {
            let (formKey, users) = try await pool.run { db in (try prepare(db, seed: seed, hasher: hasher), try SQLAccountStore.users(db)) }
            return make(on: pool, users: users, formKey: formKey, hasher: hasher)
        } catch {
            pool.close()
            throw DatabaseProblem("cannot prepare \(location): \(error)")
        }
    }

    /// Migrates `db`, seeds it when asked and empty. - Returns: the form key.
    private static func prepare(_ db: any SQLConnection, seed: Bool, hasher: PasswordHasher) throws -> [UInt8] {
        try db.migrate(Schema.migrations)
        if seed { try Seeder.seedIfEmpty(db, hasher: hasher) }
        return try AccountTables.formKey(in: db)
    }

    private static func make(on pool: ConnectionPool, users: [User], formKey: [UInt8], hasher: PasswordHasher) -> AppData {
        let store = SQLStore(pool: pool)
        return AppData(
            feed: store, day: store, layouts: store, accounts: SQLAccountStore(pool: pool), users: users, formKey: formKey, pool: pool,
            hasher: hasher)
    }

    /// `mkdir -p` of the directory `path` is in.
    private static func createParentDirectory(of path: String) throws(DatabaseProblem) {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return }
        let directory = String(path[..<slash])
        // Each ancestor in turn, from the top; one that exists already is fine.
        var prefix = directory.hasPrefix("/") ? "/" : ""
        for component in directory.split(separator: "/") {
            prefix += component
            if mkdir(prefix, 0o755) != 0, errno != EEXIST {
                throw DatabaseProblem("cannot create the directory \(directory) for the database")
            }
            prefix += "/"
        }
    }
}

/// Why the database could not be used at start: printed as one line, exit code 2.
public struct DatabaseProblem: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension AppData {
    /// The database pool's size, use and waits, read when scraped.
    func registerMetrics(in registry: MetricsRegistry) {
        guard let pool else { return }
        registry.gauge("sectional_db_pool_connections", "Database connections, busy or not.") { [([], Double(pool.statistics.size))] }
        registry.gauge("sectional_db_pool_in_use", "Database connections running a caller's work now.") {
            [([], Double(pool.statistics.inUse))]
        }
        registry.gauge("sectional_db_pool_wait_seconds_total", "Time database work waited for a connection, in all.") {
            [([], pool.statistics.secondsWaited)]
        }
        registry.gauge("sectional_db_pool_jobs_total", "Database work started.") { [([], Double(pool.statistics.jobsStarted))] }
        registry.gauge("sectional_db_reads_total", "Database reads asked for, on a pool thread or the request's.") {
            [([], Double(pool.statistics.reads))]
        }
    }
}
