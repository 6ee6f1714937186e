import Dispatch
import Sectional
import SectionalSQL

/// On SQLite, where no notification crosses processes: notices the commits
/// other connections make to the database (this process's writer, the
/// server's command line, a batch job, `sqlite3`) and hands the versions
/// their triggers raised to the hub, so cached sections and open pages
/// follow a change made outside the app.
///
/// Every `interval` it asks its own connection for `PRAGMA data_version`,
/// which changes only when another connection has committed; then it reads
/// the versions changed since it last looked (by their `seq`), not the
/// whole table. The pragma reads a counter in shared memory, a couple of
/// microseconds: asked every 20 ms by default, it costs 0.01 % of a core,
/// and an outside change reaches a thousand open pages within about 50 ms.
public final class SQLiteVersionWatcher: Sendable {
    private let stopped = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching on a thread of its own, with a connection `open`
    /// makes there; the versions stored now are taken as known.
    /// - Throws: the connection's error, when it cannot open or read.
    public static func start(
        updating hub: LiveHub, every interval: Duration = .milliseconds(20), open: @escaping @Sendable () throws(SQLError) -> any SQLConnection
    ) async throws(SQLError) -> SQLiteVersionWatcher {
        let watcher = SQLiteVersionWatcher()
        let opened = await withCheckedContinuation { (continuation: CheckedContinuation<SQLError?, Never>) in
            DedicatedThread.start {
                let connection: any SQLConnection
                var lastSeen: (dataVersion: Int, seq: Int)
                do throws(SQLError) {
                    connection = try open()
                    lastSeen = (try dataVersion(connection), try latestSeq(connection))
                } catch {
                    continuation.resume(returning: error)
                    watcher.finished.signal()
                    return
                }
                continuation.resume(returning: nil)
                let tick = DispatchTimeInterval.microseconds(Int(interval / .microseconds(1)))
                while watcher.stopped.wait(timeout: .now() + tick) == .timedOut {
                    // A failed read is tried again at the next tick; the versions already known stay.
                    guard let now = try? dataVersion(connection), now != lastSeen.dataVersion else { continue }
                    if let seq = try? readChanges(since: lastSeen.seq, from: connection, into: hub) { lastSeen = (now, seq) }
                }
                watcher.finished.signal()
            }
        }
        if let opened { throw opened }
        return watcher
    }

    /// Stops watching and waits for its thread to end.
    public func stop() {
        stopped.signal()
        finished.wait()
    }

    private static func dataVersion(_ db: any SQLConnection) throws(SQLError) -> Int {
        try db.query("PRAGMA data_version", [])[0].int(0)
    }

    private static func latestSeq(_ db: any SQLConnection) throws(SQLError) -> Int {
        try db.query("SELECT coalesce(max(seq), 0) FROM live_versions", [])[0].int(0)
    }

    /// The versions changed after `seq`, into `hub`. - Returns: the latest `seq` read.
    private static func readChanges(since seq: Int, from db: any SQLConnection, into hub: LiveHub) throws(SQLError) -> Int {
        var latest = seq
        for row in try db.query("SELECT key, version, seq FROM live_versions WHERE seq > $1 ORDER BY seq", [.int(seq)]) {
            hub.received(LiveKey(stored: try row.text(0)), version: try row.int(1))
            latest = max(latest, try row.int(2))
        }
        return latest
    }
}
