import SectionalPostgres
import SectionalSQL
import SectionalSQLite
import SectionalServer

extension LiveHub {
    /// Hears the changes every replica on PostgreSQL commits, this one's
    /// included, and reads every stored version again whenever it reconnects.
    public func listening(to url: String) -> PostgresListener {
        PostgresListener(
            url: url, channel: LiveVersions.channel,
            notified: { [self] payload in LiveVersions.receive(payload, into: self) },
            resync: { [self] db in try? LiveVersions.load(into: self, from: db) })
    }
}

extension LiveHub {
    /// On a SQLite file, follows the changes other processes commit to it
    /// (the server's command line, `sqlite3`, a batch job): the versions
    /// their triggers raised reach cached sections and open pages within `interval`.
    public func watchingOtherWriters(of path: String, every interval: Duration = .milliseconds(20)) async throws(SQLError)
        -> SQLiteVersionWatcher
    {
        try await SQLiteVersionWatcher.start(updating: self, every: interval) { () throws(SQLError) in
            try SQLiteConnection(path: path, readOnly: true)
        }
    }
}

extension AppData {
    /// The stored versions, into `hub`, before any stream opens.
    public func loadLiveVersions(into hub: LiveHub) async {
        guard let pool else { return }
        _ = try? await pool.run { db in try LiveVersions.load(into: hub, from: db) }
    }
}
