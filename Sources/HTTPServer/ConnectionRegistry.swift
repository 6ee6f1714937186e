import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Every open connection, by socket, and whether it is waiting for a
/// request head: what lets the server bound how long a head may take, shed
/// connections that never finish one when it is full, hold each client
/// address to its share, and close idle ones at once on stop.
///
/// libmicrohttpd 0.9.75 has only an idle timeout, which a client trickling
/// a byte at a time never meets, and at its connection limit it stops
/// accepting, so a few addresses holding half-sent heads lock everyone out.
/// Each worker thread has daemons of its own, and each daemon counts only
/// its own connections from an address, so the count over all is kept here.
/// Closing is done with `shutdown(2)` from any thread: libmicrohttpd then
/// sees the hang-up on the connection's own thread and frees it as usual.
/// An entry leaves the registry, under its lock, before libmicrohttpd
/// closes the socket, so a socket number is never shut down after reuse.
final class ConnectionRegistry: Sendable {
    /// One open connection, kept with it (libmicrohttpd's socket context)
    /// so that its requests reach it without the registry: its own worker
    /// thread marks each request's start and end with atomic stores, where
    /// a shared lock and a dictionary lookup, twice a request, had every
    /// worker thread's writes pulling the same cache line between cores.
    final class Tracked: Sendable {
        let socket: Int32
        let client: PeerAddress?
        /// Opened with an event stream (`Acceptor`): its head had come when it was handed
        /// over, and it closes when the stream ends, so it never waits for one.
        let isStream: Bool
        /// `awaitingHead`, `inRequest` or `shutDown`; shut down only from
        /// `awaitingHead`, by the registry under its lock.
        fileprivate let phase = Atomic<UInt8>(Phase.awaitingHead)
        /// When the current wait for a head began (uptime nanoseconds).
        fileprivate let since: Atomic<UInt64>

        init(socket: Int32, client: PeerAddress?, isStream: Bool, since: UInt64) {
            self.socket = socket
            self.client = client
            self.isStream = isStream
            self.since = Atomic(since)
        }

        fileprivate var isAwaitingHead: Bool { phase.load(ordering: .acquiring) == Phase.awaitingHead }
    }

    fileprivate enum Phase {
        static let awaitingHead: UInt8 = 0
        static let inRequest: UInt8 = 1
        static let shutDown: UInt8 = 2
    }

    /// Every open connection by socket, for the sweep, shedding and stop,
    /// and how many each client address holds.
    private let entries = Mutex(Entries())
    private let headTimeout: UInt64
    private let softLimit: Int
    private let perClientLimit: Int

    private struct Entries {
        /// The pages' daemons' connections, which may wait for a head: what the sweep and shedding look through.
        var pages: [Int32: Tracked] = [:]
        /// Connections that opened with an event stream, kept apart: the sweep, four times a
        /// second under the lock every new connection takes, walked thousands of open streams.
        var streams: [Int32: Tracked] = [:]
        var byClient: [PeerAddress: Int] = [:]

        var count: Int { pages.count + streams.count }

        /// Puts `tracked` in; an entry its socket's reuse replaces is gone, and its address's place with it.
        mutating func insert(_ tracked: Tracked) {
            let replaced = pages.removeValue(forKey: tracked.socket) ?? streams.removeValue(forKey: tracked.socket)
            if tracked.isStream { streams[tracked.socket] = tracked } else { pages[tracked.socket] = tracked }
            if let replaced { giveBack(replaced.client) }
        }

        /// Takes `tracked` out, unless a newer connection on its socket replaced it.
        mutating func remove(_ tracked: Tracked) {
            if tracked.isStream {
                guard streams[tracked.socket] === tracked else { return }
                streams[tracked.socket] = nil
            } else {
                guard pages[tracked.socket] === tracked else { return }
                pages[tracked.socket] = nil
            }
            giveBack(tracked.client)
        }

        /// One connection fewer from `client`.
        mutating func giveBack(_ client: PeerAddress?) {
            guard let client else { return }
            let held = byClient[client, default: 1] - 1
            byClient[client] = held > 0 ? held : nil
        }
    }
    /// How long a connection must have waited for its head before it may be
    /// shed for a newcomer: a second, or a tenth of the head deadline when
    /// that is shorter, so a client that just connected is not pushed out.
    private let shedAge: UInt64
    /// Closes connections whose head is overdue, four times a second, while the server runs.
    private let sweeper = Mutex<(any DispatchSourceTimer)?>(nil)

    init(headTimeout: Duration, softLimit: Int, perClientLimit: Int) {
        // Zero to a year: below zero closes at once, beyond a year means never.
        let (seconds, attoseconds) = min(max(headTimeout, .zero), .seconds(365 * 86_400)).components
        self.headTimeout = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        shedAge = min(1_000_000_000, self.headTimeout / 10)
        self.softLimit = softLimit
        self.perClientLimit = perClientLimit
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

    /// A new connection, to be handed back at each request and when it
    /// closes. One past its address's limit is shut down at once. At the
    /// soft limit the connection that has waited longest for a head makes
    /// room; when none has waited long, the newcomer is refused.
    func opened(_ socket: Int32, from client: PeerAddress?, isStream: Bool = false) -> Tracked {
        let now = Self.now()
        let tracked = Tracked(socket: socket, client: client, isStream: isStream, since: now)
        entries.withLock { entries in
            entries.insert(tracked)
            if let client {
                let held = entries.byClient[client, default: 0] + 1
                entries.byClient[client] = held
                if held > perClientLimit {
                    Self.shutDown(tracked)
                    return
                }
            }
            guard entries.count > softLimit else { return }
            // One pass, no copy: this runs under the lock on every connection past the limit.
            var oldest: Tracked?
            for (other, entry) in entries.pages where other != socket && entry.isAwaitingHead {
                if entry.since.load(ordering: .relaxed) < oldest?.since.load(ordering: .relaxed) ?? .max { oldest = entry }
            }
            if let oldest, Self.age(since: oldest.since.load(ordering: .relaxed), now: now) >= shedAge, Self.shutDown(oldest) {
                return
            }
            Self.shutDown(tracked)
        }
        return tracked
    }

    /// The head of a request arrived; `false` when the connection was already shut down for being slow.
    func headArrived(_ tracked: Tracked) -> Bool {
        let (exchanged, phase) = tracked.phase.compareExchange(
            expected: Phase.awaitingHead, desired: Phase.inRequest, ordering: .acquiringAndReleasing)
        return exchanged || phase != Phase.shutDown
    }

    /// A request ended; a kept connection waits for its next head from now.
    func requestEnded(_ tracked: Tracked) {
        // The time first, so that a sweep that sees the wait sees when it began.
        tracked.since.store(Self.now(), ordering: .relaxed)
        _ = tracked.phase.compareExchange(expected: Phase.inRequest, desired: Phase.awaitingHead, ordering: .releasing)
    }

    /// libmicrohttpd is about to close the socket.
    func closed(_ tracked: Tracked) {
        entries.withLock { $0.remove(tracked) }
    }

    /// Shuts down connections whose head is overdue.
    func sweep() {
        let now = Self.now()
        entries.withLock { entries in
            for entry in entries.pages.values where entry.isAwaitingHead {
                if Self.age(since: entry.since.load(ordering: .relaxed), now: now) > headTimeout { Self.shutDown(entry) }
            }
        }
    }

    /// Shuts down every connection not in the middle of a request: on stop,
    /// only requests in progress get the grace period.
    func shutDownIdle() {
        entries.withLock { entries in
            for entry in entries.pages.values { Self.shutDown(entry) }
        }
    }

    /// Shuts the connection down if it still waits for a head; `false` when
    /// its head arrived meanwhile. Called under the lock, so the socket is
    /// still the connection's (`closed` takes it out first).
    @discardableResult
    private static func shutDown(_ tracked: Tracked) -> Bool {
        let (exchanged, _) = tracked.phase.compareExchange(expected: Phase.awaitingHead, desired: Phase.shutDown, ordering: .acquiringAndReleasing)
        if exchanged { shutdown(tracked.socket, Int32(SHUT_RDWR)) }
        return exchanged
    }

    private static func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

    /// How long ago `since` was; zero when another thread stamped it after `now` was read.
    static func age(since: UInt64, now: UInt64) -> UInt64 { now > since ? now - since : 0 }
}
