import HTTPServer
import SectionalPostgres
import SectionalSQL
import SectionalServer

/// How a write tells open pages that their data changed. In a database, the
/// key's version is kept in `live_versions` (so that it survives restarts and
/// a reconnecting listener can catch up) and, on PostgreSQL, NOTIFYed on
/// commit to every replica's listener, this one's included. In memory, the
/// hub of this one process is told directly.
public struct LivePublisher: Sendable {
    /// The channel every replica LISTENs on; payloads are `KEY VERSION`, never HTML.
    public static let channel = "sectional_live"

    let hub: LiveHub
    let pool: ConnectionPool?
    let logger: Logger

    /// `key`'s data changed: its version goes up, and every replica's watchers are told.
    func changed(_ key: String) async {
        guard let pool else { return hub.publish(key) }
        do {
            let version = try await pool.write { db in
                let version = try db.query(
                    """
                    INSERT INTO live_versions (key, version) VALUES ($1, 1)
                    ON CONFLICT (key) DO UPDATE SET version = live_versions.version + 1 RETURNING version
                    """, [.text(key)])[0].int(0)
                if db.dialect == .postgres { try db.execute("SELECT pg_notify('\(Self.channel)', $1)", [.text("\(key) \(version)")]) }
                return version
            }
            // PostgreSQL: the listener hears it, here as everywhere. SQLite: one process, this hub.
            if pool.dialect == .sqlite { hub.received(key, version: version) }
        } catch {
            logger.log("live: the change of \(key) could not be recorded, telling this replica only: \(error)")
            hub.nudge(key)
        }
    }

    /// The stored versions, into the hub: at start, and after a listener reconnects.
    static func resync(_ hub: LiveHub, from db: any SQLConnection) {
        guard let rows = try? db.query("SELECT key, version FROM live_versions", []) else { return }
        for row in rows {
            if let key = try? row.text(0), let version = try? row.int(1) { hub.received(key, version: version) }
        }
    }

    /// Every replica on PostgreSQL listens: a change committed anywhere reaches the pages open here.
    public static func listen(_ hub: LiveHub, url: String) -> PostgresListener {
        PostgresListener(
            url: url, channel: channel,
            notified: { payload in
                let parts = payload.split(separator: " ")
                if parts.count == 2, let version = Int(parts[1]) { hub.received(String(parts[0]), version: version) }
            },
            resync: { db in resync(hub, from: db) })
    }

    /// Fills the hub with the stored versions before any stream opens.
    public static func load(_ hub: LiveHub, from data: AppData) async {
        guard let pool = data.pool else { return }
        _ = try? await pool.run { db in resync(hub, from: db) }
    }
}
