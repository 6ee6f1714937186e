import Sectional
import SectionalSQL

/// The versions of live data, kept in the database beside the data.
///
/// The app's migrations create the table (`migration(_:)`, then
/// `orderMigration(_:)`) and a trigger on each table whose rows are live data
/// (`triggers(_:on:)`): every insert, update or delete of a row raises its
/// owner's key's version in the same transaction, and on PostgreSQL sends a
/// NOTIFY on `channel` that every replica's listener hears once the
/// transaction commits. A change made outside the app (in `psql`, `sqlite3`,
/// a batch job) is announced the same way; a rolled-back one never is.
///
/// The app's own write reads back the version its triggers gave, to tell
/// this process's pages at once, without waiting for a notification:
///
/// ```swift
/// let change = try await pool.write { db in
///     try db.execute("UPDATE alerts SET dismissed = TRUE WHERE …")
///     return try LiveVersions.change(of: .alerts(of: user), in: db)
/// }
/// hub.announce(change)
/// ```
///
/// A process that dies between the commit and the announcement leaves
/// nothing stale: its pages' streams end with it, and a server reads the
/// stored versions back as it starts (`load(into:from:)`). On SQLite, where
/// no notification crosses processes, `SQLiteVersionWatcher` notices commits
/// made by others.
public enum LiveVersions {
    /// The channel every replica's listener LISTENs on; payloads are `KEY VERSION`, never data.
    public static let channel = "sectional_live"

    /// The migration that creates the table, as the app's migration `version`.
    public static func migration(_ version: Int) -> Migration {
        Migration(
            version, "versions of live data",
            sqlite: "CREATE TABLE live_versions (key TEXT PRIMARY KEY, version INTEGER NOT NULL) STRICT",
            postgres: "CREATE TABLE live_versions (key text PRIMARY KEY, version bigint NOT NULL)")
    }

    /// The order of changes (`seq`, which grows with every change to any
    /// key), and on PostgreSQL the function the triggers call: the
    /// migration `version`, after `migration(_:)` and before `triggers(_:on:)`.
    public static func orderMigration(_ version: Int) -> Migration {
        Migration(
            version, "the order of changes to live data",
            sqlite: """
                ALTER TABLE live_versions ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
                CREATE INDEX live_versions_by_seq ON live_versions (seq);
                """,
            postgres: """
                ALTER TABLE live_versions ADD COLUMN seq bigint NOT NULL DEFAULT 0;
                CREATE INDEX live_versions_by_seq ON live_versions (seq);
                CREATE SEQUENCE live_versions_order;
                CREATE FUNCTION sectional_live_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                DECLARE
                    owners text[] := ARRAY[]::text[];
                    owner text;
                    changed text;
                    raised bigint;
                BEGIN
                    IF TG_OP <> 'INSERT' THEN owners := owners || (to_jsonb(OLD) ->> TG_ARGV[1]); END IF;
                    IF TG_OP <> 'DELETE' THEN owners := owners || (to_jsonb(NEW) ->> TG_ARGV[1]); END IF;
                    FOR owner IN SELECT DISTINCT unnest(owners) LOOP
                        changed := TG_ARGV[0] || ':' || owner;
                        INSERT INTO live_versions (key, version, seq) VALUES (changed, 1, nextval('live_versions_order'))
                        ON CONFLICT (key) DO UPDATE SET version = live_versions.version + 1, seq = excluded.seq
                        RETURNING version INTO raised;
                        PERFORM pg_notify('\(channel)', changed || ' ' || raised);
                    END LOOP;
                    RETURN NULL;
                END $$;
                """)
    }

    /// Triggers that raise a version with every change to `tables`' rows:
    /// the migration `version`. A table added later gets a migration of its
    /// own; so does a table whose triggers change (they replace its old ones).
    public static func triggers(_ version: Int, on tables: [LiveTable]) -> Migration {
        Migration(
            version, "live versions raised by " + tables.map(\.table).joined(separator: ", "),
            sqlite: tables.map(\.sqliteTriggers).joined(separator: "\n"),
            postgres: tables.map(\.postgresTrigger).joined(separator: "\n"))
    }

    /// In a write's transaction, after the write: the version its triggers
    /// gave `key`, to announce once the transaction commits (`LiveHub.announce(_:)`).
    public static func change(of key: LiveKey, in db: any SQLConnection) throws(SQLError) -> LiveHub.Change {
        let version = try db.query("SELECT version FROM live_versions WHERE key = $1", [.text(key.description)]).first?.int(0) ?? 0
        return LiveHub.Change(key: key, version: version)
    }

    /// Every stored version, into `hub`: at start, and after a listener reconnects.
    public static func load(into hub: LiveHub, from db: any SQLConnection) throws(SQLError) {
        for row in try db.query("SELECT key, version FROM live_versions", []) {
            hub.received(LiveKey(stored: try row.text(0)), version: try row.int(1))
        }
    }

    /// A NOTIFY's payload (`KEY VERSION`), into `hub`; anything else is ignored.
    public static func receive(_ payload: String, into hub: LiveHub) {
        let parts = payload.split(separator: " ")
        if parts.count == 2, let version = Int(parts[1]) { hub.received(LiveKey(stored: String(parts[0])), version: version) }
    }
}

extension LiveHub {
    /// Committed changes reach this replica's pages now. Its listener may
    /// hear the same change again from PostgreSQL: a version no newer than
    /// the one known is ignored.
    public func announce(_ change: Change?) {
        if let change { received(change.key, version: change.version) }
    }
}

/// A table whose rows are live data: a row whose `owner` column holds N
/// is the data of `LiveKey(kind, of: N)`, and a change to it raises that
/// key's version (`LiveVersions.triggers(_:on:)`). The app declares each
/// once; its sections and its triggers both take their keys from it:
///
/// ```swift
/// static let alerts = LiveTable("alerts", kind: "alerts", owner: "user_id")
/// // a section: override var liveKeys: Set<LiveKey> { [Self.alerts.key(of: user)] }
/// ```
public struct LiveTable: Sendable {
    /// The table's name.
    public let table: String
    /// The key's kind: `alerts` in `alerts:7`.
    public let kind: String
    /// The column that names the row's owner: `7` in `alerts:7`.
    public let owner: String
    /// The columns whose update is a change of the data; `nil`: any column's.
    public let updatesOf: [String]?

    /// `table`, whose rows belong to the owner in column `owner`, as keys of
    /// `kind`; an update counts only when it sets one of `updatesOf`, if given
    /// (a session's last-seen time is bookkeeping, not a change of who it is).
    public init(_ table: String, kind: String, owner: String, updatesOf: [String]? = nil) {
        let names = [table, kind, owner] + (updatesOf ?? [])
        precondition(
            names.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } },
            "a live table's name, kind and columns are plain words")
        precondition(
            !table.contains("-") && !owner.contains("-") && !(updatesOf ?? []).contains { $0.contains("-") }, "tables and columns are SQL names")
        self.table = table
        self.kind = kind
        self.owner = owner
        self.updatesOf = updatesOf
    }

    /// `UPDATE` or `UPDATE OF the columns`: what a trigger fires on.
    private var update: String { updatesOf.map { "UPDATE OF " + $0.joined(separator: ", ") } ?? "UPDATE" }

    /// The key of the rows `owner` owns.
    public func key(of owner: some CustomStringConvertible) -> LiveKey { LiveKey(kind, of: owner) }

    /// SQLite's triggers fire for each row, raising its owner's version once;
    /// an update that moves a row to another owner raises the old one's too.
    var sqliteTriggers: String {
        func raise(_ row: String) -> String {
            """
            INSERT INTO live_versions (key, version, seq)
                VALUES ('\(kind):' || \(row).\(owner), 1, (SELECT coalesce(max(seq), 0) + 1 FROM live_versions))
                ON CONFLICT (key) DO UPDATE SET version = version + 1, seq = excluded.seq;
            """
        }
        let names = ["inserted", "updated", "moved", "deleted"].map { "live_\(table)_\($0)" }
        return names.map { "DROP TRIGGER IF EXISTS \($0);\n" }.joined() + """
            CREATE TRIGGER live_\(table)_inserted AFTER INSERT ON \(table) BEGIN \(raise("NEW")) END;
            CREATE TRIGGER live_\(table)_updated AFTER \(update) ON \(table) BEGIN \(raise("NEW")) END;
            CREATE TRIGGER live_\(table)_moved AFTER UPDATE ON \(table) WHEN OLD.\(owner) IS NOT NEW.\(owner) BEGIN \(raise("OLD")) END;
            CREATE TRIGGER live_\(table)_deleted AFTER DELETE ON \(table) BEGIN \(raise("OLD")) END;
            """
    }

    var postgresTrigger: String {
        """
        DROP TRIGGER IF EXISTS live_\(table) ON \(table);
        CREATE TRIGGER live_\(table) AFTER INSERT OR \(update) OR DELETE ON \(table)
            FOR EACH ROW EXECUTE FUNCTION sectional_live_changed('\(kind)', '\(owner)');
        """
    }
}
