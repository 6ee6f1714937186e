/// One step of a schema, written for each engine where they differ.
public struct Migration: Sendable {
    /// Steps apply in increasing version, each once.
    public var version: Int
    /// What the step does, kept in `schema_version`.
    public var name: String
    /// The step's statements on SQLite.
    public var sqlite: String
    /// The step's statements on PostgreSQL.
    public var postgres: String

    /// A step whose SQL is the same on both engines.
    public init(_ version: Int, _ name: String, sql: String) {
        self.init(version, name, sqlite: sql, postgres: sql)
    }

    /// A step written for each engine.
    public init(_ version: Int, _ name: String, sqlite: String, postgres: String) {
        self.version = version
        self.name = name
        self.sqlite = sqlite
        self.postgres = postgres
    }

    func script(for dialect: SQLDialect) -> String { dialect == .sqlite ? sqlite : postgres }
}

extension SQLConnection {
    /// Applies the migrations not yet applied, with their `schema_version`
    /// rows, in one transaction: all or none. Several processes starting
    /// at once apply each step once: SQLite's `BEGIN IMMEDIATE` and a
    /// PostgreSQL advisory lock (taken before anything else, even `CREATE
    /// TABLE IF NOT EXISTS`, which races without it) serialise them.
    /// - Returns: the versions this call applied.
    @discardableResult
    public func migrate(_ migrations: [Migration], lockKey: Int64 = 0x5EC7_1011) throws -> [Int] {
        try transaction {
            if dialect == .postgres { try execute("SELECT pg_advisory_xact_lock($1)", [.integer(lockKey)]) }
            try executeScript(
                "CREATE TABLE IF NOT EXISTS schema_version (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)")
            let applied = Set(try query("SELECT version FROM schema_version", []).map { row throws(SQLError) in try row.int(0) })
            var now: [Int] = []
            for migration in migrations.sorted(by: { $0.version < $1.version }) where !applied.contains(migration.version) {
                try executeScript(migration.script(for: dialect))
                try execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES ($1, $2, CURRENT_TIMESTAMP)",
                    [.int(migration.version), .text(migration.name)])
                now.append(migration.version)
            }
            return now
        }
    }

    /// The highest version applied, or 0 before any.
    public func schemaVersion() throws(SQLError) -> Int {
        try query("SELECT COALESCE(MAX(version), 0) FROM schema_version", [])[0].int(0)
    }
}
