import CLibPQ
import Dispatch
import SectionalSQL
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// LISTEN on a channel, on a thread and a connection of its own: every
/// replica hears what any replica's transaction NOTIFYs once it commits.
///
/// Notifications sent while the connection is down are lost, so after every
/// (re)connect `resync` runs first, for the caller to read what it missed
/// from the database. libpq keeps notifications it read along with a query's
/// result, so they are drained after every statement, not only when the
/// socket wakes.
public final class PostgresListener: Sendable {
    private final class Flag: Sendable {
        let raised = Atomic<Bool>(false)
        var isRaised: Bool { raised.load(ordering: .relaxed) }
    }
    private let stopped = Flag()

    /// Starts listening on `channel` at `url`. `notified` gets each payload;
    /// `resync` runs on the listener's connection after each connect.
    public init(
        url: String, channel: String, notified: @escaping @Sendable (String) -> Void,
        resync: @escaping @Sendable (any SQLConnection) -> Void
    ) {
        let stopped = stopped
        // TCP keepalives, and a probe below, find a connection that died silently (a failover, a dropped flow).
        let separator = url.contains("?") ? "&" : "?"
        let listening = url + separator + "keepalives_idle=30&keepalives_interval=10&keepalives_count=3"
        DedicatedThread.start {
            var backoff: UInt32 = 100_000
            while !stopped.isRaised {
                do {
                    let connection = try PostgresConnection(url: listening)
                    try connection.executeScript("LISTEN \"\(channel)\"")
                    resync(connection)
                    connection.drainNotifications(into: notified)
                    var lastProbe = DispatchTime.now().uptimeNanoseconds
                    while !stopped.isRaised, connection.waitForNotifications(milliseconds: 500) {
                        connection.drainNotifications(into: notified)
                        if DispatchTime.now().uptimeNanoseconds - lastProbe > 30_000_000_000 {
                            try connection.executeScript("SELECT 1")
                            connection.drainNotifications(into: notified)
                            lastProbe = DispatchTime.now().uptimeNanoseconds
                            backoff = 100_000  // it held: the next loss starts from a short wait again
                        }
                    }
                } catch {}
                // Lost (or never made): wait before the next try, longer each time it is lost again quickly.
                if !stopped.isRaised {
                    usleep(backoff)
                    backoff = min(backoff * 2, 5_000_000)
                }
            }
        }
    }

    /// Ends the listening thread within half a second.
    public func stop() { stopped.raised.store(true, ordering: .relaxed) }
}

extension PostgresConnection {
    /// Waits up to `milliseconds` for the socket; `false` when the connection is lost.
    func waitForNotifications(milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: pq.PQsocket(raw), events: Int16(POLLIN), revents: 0)
        _ = poll(&descriptor, 1, milliseconds)
        return pq.PQconsumeInput(raw) == 1 && pq.PQstatus(raw) == CONNECTION_OK
    }

    /// Hands every notification libpq holds to `notified`.
    func drainNotifications(into notified: (String) -> Void) {
        while let notification = pq.PQnotifies(raw) {
            notified(String(cString: notification.pointee.extra))
            pq.PQfreemem(notification)
        }
    }
}
