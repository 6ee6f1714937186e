import SectionalPostgres
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

extension AppData {
    /// The stored versions, into `hub`, before any stream opens.
    public func loadLiveVersions(into hub: LiveHub) async {
        guard let pool else { return }
        _ = try? await pool.run { db in try LiveVersions.load(into: hub, from: db) }
    }
}
