import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Every open connection, by socket, and whether it is waiting for a
/// request head: what lets the server bound how long a head may take, shed
/// connections that never finish one when it is full, and close idle ones
/// at once on stop.
///
/// libmicrohttpd 0.9.75 has only an idle timeout, which a client trickling
/// a byte at a time never meets, and at its connection limit it stops
/// accepting, so a few addresses holding half-sent heads lock everyone out.
/// Closing is done with `shutdown(2)` from any thread: libmicrohttpd then
/// sees the hang-up on the connection's own thread and frees it as usual.
/// An entry leaves the registry, under its lock, before libmicrohttpd
/// closes the socket, so a socket number is never shut down after reuse.
final class ConnectionRegistry: Sendable {
    private struct Entry {
        var awaitingHead = true
        /// When the current wait for a head began (uptime nanoseconds).
        var since: UInt64
        var shutDown = false
    }

    private let entries = Mutex<[Int32: Entry]>([:])
    private let headTimeout: UInt64
    private let softLimit: Int
    /// How long a connection must have waited for its head before it may be
    /// shed for a newcomer: a second, or a tenth of the head deadline when
    /// that is shorter, so a client that just connected is not pushed out.
    private let shedAge: UInt64
    /// Closes connections whose head is overdue, four times a second, while the server runs.
    private let sweeper = Mutex<(any DispatchSourceTimer)?>(nil)

    init(headTimeout: Duration, softLimit: Int) {
        // Zero to a year: below zero closes at once, beyond a year means never.
        let (seconds, attoseconds) = min(max(headTimeout, .zero), .seconds(365 * 86_400)).components
        self.headTimeout = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        shedAge = min(1_000_000_000, self.headTimeout / 10)
        self.softLimit = softLimit
    }

    var count: Int { entries.withLock { $0.count } }

    func startSweeping() {
        sweeper.withLock { sweeper in
            let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "sectional.server.head-deadlines"))
            timer.schedule(deadline: .now() + .milliseconds(250), repeating: .milliseconds(250), leeway: .milliseconds(50))
            // The handler holds the registry until `stopSweeping()` lets it go.
            timer.setEventHandler { [self] in sweep() }
            timer.resume()
            sweeper = timer
        }
    }

    func stopSweeping() {
        sweeper.withLock { sweeper in
            sweeper?.cancel()
            sweeper?.setEventHandler(handler: nil)
            sweeper = nil
        }
    }

    /// A new connection. At the soft limit the connection that has waited
    /// longest for a head makes room; when none has waited long, the
    /// newcomer is refused.
    func opened(_ socket: Int32) {
        let now = Self.now()
        entries.withLock { entries in
            entries[socket] = Entry(since: now)
            guard entries.count > softLimit else { return }
            // One pass, no copy: this runs under the lock on every connection past the limit.
            var oldest: (socket: Int32, since: UInt64)?
            for (other, entry) in entries where entry.awaitingHead && !entry.shutDown && other != socket {
                if entry.since < oldest?.since ?? .max { oldest = (other, entry.since) }
            }
            if let oldest, Self.age(since: oldest.since, now: now) >= shedAge {
                Self.shutDown(oldest.socket, in: &entries)
            } else {
                Self.shutDown(socket, in: &entries)
            }
        }
    }

    /// The head of a request arrived; `false` when the connection was already shut down for being slow.
    func headArrived(_ socket: Int32) -> Bool {
        // One lookup per request, not one per field: each cost ~750 instructions.
        entries.withLock { entries in
            guard let index = entries.index(forKey: socket) else { return true }
            if entries.values[index].shutDown { return false }
            entries.values[index].awaitingHead = false
            return true
        }
    }

    /// A request ended; a kept connection waits for its next head from now.
    func requestEnded(_ socket: Int32) {
        entries.withLock { entries in
            guard let index = entries.index(forKey: socket) else { return }
            entries.values[index].awaitingHead = true
            entries.values[index].since = Self.now()
        }
    }

    /// libmicrohttpd is about to close the socket.
    func closed(_ socket: Int32) {
        _ = entries.withLock { $0.removeValue(forKey: socket) }
    }

    /// Shuts down connections whose head is overdue.
    func sweep() {
        let now = Self.now()
        entries.withLock { entries in
            for (socket, entry) in entries where entry.awaitingHead && !entry.shutDown && Self.age(since: entry.since, now: now) > headTimeout {
                Self.shutDown(socket, in: &entries)
            }
        }
    }

    /// Shuts down every connection not in the middle of a request: on stop,
    /// only requests in progress get the grace period.
    func shutDownIdle() {
        entries.withLock { entries in
            for (socket, entry) in entries where entry.awaitingHead && !entry.shutDown {
                Self.shutDown(socket, in: &entries)
            }
        }
    }

    private static func shutDown(_ socket: Int32, in entries: inout [Int32: Entry]) {
        entries[socket]?.shutDown = true
        shutdown(socket, Int32(SHUT_RDWR))
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// How long ago `since` was; zero when another thread stamped it after `now` was read.
    static func age(since: UInt64, now: UInt64) -> UInt64 { now > since ? now - since : 0 }
}
