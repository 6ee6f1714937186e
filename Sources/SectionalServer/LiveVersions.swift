import Sectional
import SectionalSQL

/// The versions of live data, kept in the database beside the data, in a
/// table the app's migrations create with `migration(_:)`.
///
/// A write records each change inside its own transaction, so that a
/// committed change is always announced and one rolled back never is:
///
/// ```swift
/// let change = try await pool.write { db in
///     try db.execute("UPDATE alerts SET dismissed = TRUE WHERE …")
///     return try LiveVersions.record(.alerts(of: user), in: db)
/// }
/// hub.announce(change)
/// ```
///
/// The key's version goes up in the table, and on PostgreSQL a NOTIFY on
/// `channel`, sent when (and only if) the transaction commits, reaches every
/// replica's listener. `LiveHub.announce(_:)` then tells this process's pages
/// at once. A process that dies between the commit and the announcement
/// leaves nothing stale: its pages' streams end with it, and a server reads
/// the stored versions back as it starts (`load(into:from:)`).
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

    /// In a write's transaction: `key`'s version goes up, and on PostgreSQL
    /// every replica is told when the transaction commits.
    public static func record(_ key: LiveKey, in db: any SQLConnection) throws(SQLError) -> LiveHub.Change {
        let version = try db.query(
            """
            INSERT INTO live_versions (key, version) VALUES ($1, 1)
            ON CONFLICT (key) DO UPDATE SET version = live_versions.version + 1 RETURNING version
            """, [.text(key.description)])[0].int(0)
        if db.dialect == .postgres {
            try db.execute("SELECT pg_notify('\(channel)', $1)", [.text("\(key) \(version)")])
        }
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
