import Sectional
import Synchronization

/// Who is watching which live data, on this replica: each open page's event
/// stream subscribes to its live sections' keys; a write publishes the key
/// of what it changed, and every stream watching it is told.
///
/// Each key has a version that only grows (in this process). A stream's
/// queue holds the newest few changes and drops older ones, so a slow client
/// gets the latest state, never a backlog. Streams are limited per user and
/// in all, far below the server's connection limit, so they can never crowd
/// out page requests: past a user's limit their oldest stream ends, past
/// the total new streams are refused.
public final class LiveHub: LiveVersionSource {
    /// One key's new version: as a write's triggers raised it (`LiveVersions.change(of:in:)`), as a stream hears it.
    public struct Change: Sendable, Equatable {
        /// What changed, e.g. `alerts:1`.
        public var key: LiveKey
        /// Its version now.
        public var version: Int

        /// A change of `key` to `version`.
        public init(key: LiveKey, version: Int) {
            self.key = key
            self.version = version
        }
    }

    /// Streams one user may have open at once.
    public let limitPerUser: Int
    /// Streams all users together may have open.
    public let limitTotal: Int

    /// One stream's subscription. A class: it is kept in several indexes
    /// (by id, by user, by key), and a struct's fields were each retained
    /// and released wherever it was copied.
    private final class Subscriber: Sendable {
        let keys: Set<LiveKey>
        let user: String
        let session: String?
        let changes: LiveChanges

        init(keys: Set<LiveKey>, user: String, session: String?, changes: LiveChanges) {
            self.keys = keys
            self.user = user
            self.session = session
            self.changes = changes
        }
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        /// Each user's streams, oldest first: their limit is counted without
        /// walking everyone's (opening 10,000 streams of one user walked
        /// 50 million subscriptions, all under the lock).
        var byUser: [String: [Int]] = [:]
        /// Each key's watchers, by subscription: a change reaches them without
        /// walking every stream (a change to 10,000 streams' key hashed it
        /// 10,000 times, under the lock).
        var byKey: [LiveKey: [Int: LiveChanges]] = [:]
        var nextID = 0
        var versions: [LiveKey: Int] = [:]
        var closed = false

        mutating func add(_ subscriber: Subscriber, id: Int) {
            subscribers[id] = subscriber
            byUser[subscriber.user, default: []].append(id)
            for key in subscriber.keys { byKey[key, default: [:]][id] = subscriber.changes }
        }

        /// Removes the subscription `id` from every index; `nil` when it is gone already.
        mutating func remove(_ id: Int) -> Subscriber? {
            guard let gone = subscribers.removeValue(forKey: id) else { return nil }
            if let index = byUser[gone.user]?.firstIndex(of: id) { byUser[gone.user]?.remove(at: index) }
            if byUser[gone.user]?.isEmpty == true { byUser[gone.user] = nil }
            for key in gone.keys {
                byKey[key]?[id] = nil
                if byKey[key]?.isEmpty == true { byKey[key] = nil }
            }
            return gone
        }
    }

    private let state = Mutex(State())
    /// The streams' heartbeat, once started.
    private let heartbeat = Mutex<Task<Void, Never>?>(nil)
    /// Goes up under the lock, after each version that does (`changeCount`).
    private let changes = Atomic(0)
    /// The change that tells a stream to end for good (version 0: replaced by a newer one; 1: signed out).
    public static let endKey = LiveKey(stored: "")
    /// Not a change: the stream's own wake-up (its client took what was sent).
    public static let nudgeKey = LiveKey(stored: "#nudge")
    /// Not a change: the heartbeat every stream gets from the hub's one clock (`keepBeating`).
    public static let beatKey = LiveKey(stored: "#beat")
    /// Changes a stream's queue holds before it drops the oldest.
    static let queueLength = 16

    /// A hub allowing `limitPerUser` streams a user and `limitTotal` in all.
    public init(limitPerUser: Int = 8, limitTotal: Int = 256) {
        self.limitPerUser = limitPerUser
        self.limitTotal = limitTotal
    }

    /// A stream's subscription to `keys`, for `user` (and `session`, so that
    /// signing out can end it); the user's oldest ends when they are at their
    /// limit; `nil` when the total is reached or the hub is closed.
    public func subscribe(to keys: Set<LiveKey>, user: String, session: String?) -> LiveSubscription? {
        let changes = LiveChanges(keepingNewest: Self.queueLength)
        let (id, evicted): (Int?, LiveChanges?) = state.withLock { state in
            guard !state.closed else { return (nil, nil) }
            // A user at the limit loses their oldest stream: a page closed or reloaded is noticed only at
            // its next heartbeat, and refusing the page in front of them for it would be backwards.
            var evicted: LiveChanges?
            if let theirs = state.byUser[user], theirs.count >= limitPerUser, let oldest = theirs.first {
                evicted = state.remove(oldest)?.changes
            }
            guard state.subscribers.count < limitTotal else { return (nil, evicted) }
            state.nextID += 1
            state.add(Subscriber(keys: keys, user: user, session: session, changes: changes), id: state.nextID)
            return (state.nextID, evicted)
        }
        evicted?.yield(Change(key: Self.endKey, version: 0))
        evicted?.finish()
        guard let id else {
            changes.finish()
            return nil
        }
        changes.onTermination { [weak self] in self?.unsubscribe(id) }
        return LiveSubscription(changes: changes)
    }

    /// The data of `key` changed here: its version goes up and its watchers are told.
    public func publish(_ key: LiveKey) {
        let change = state.withLock { state -> Change in
            let version = (state.versions[key] ?? 0) + 1
            state.versions[key] = version
            changes.add(1, ordering: .releasing)
            return Change(key: key, version: version)
        }
        deliver(change)
    }

    /// Another replica changed `key` to `version`: told only if it is newer than what this one knows.
    public func received(_ key: LiveKey, version: Int) {
        let isNewer = state.withLock { state in
            guard version > state.versions[key] ?? 0 else { return false }
            state.versions[key] = version
            changes.add(1, ordering: .releasing)
            return true
        }
        if isNewer { deliver(Change(key: key, version: version)) }
    }

    /// The version of `key`; 0 before any change.
    public func version(of key: LiveKey) -> Int { state.withLock { $0.versions[key] ?? 0 } }

    /// A section's version: the sum of its keys' versions, which grows
    /// whenever any of them does. Read under one lock: a page and a `304`
    /// read several at once.
    public func version(of keys: Set<LiveKey>) -> Int {
        state.withLock { state in keys.reduce(0) { $0 + (state.versions[$1] ?? 0) } }
    }

    /// Counted after the version it follows, under the same lock: whoever
    /// reads the count and then a version sees every version the count has counted.
    public var changeCount: Int? { changes.load(ordering: .acquiring) }

    /// Streams open now.
    public var openStreams: Int { state.withLock { $0.subscribers.count } }

    /// The streams watching `key` now, as the index a change is delivered by holds them.
    func watchers(of key: LiveKey) -> Int { state.withLock { $0.byKey[key]?.count ?? 0 } }

    /// Ends the streams of `session`: it was signed out.
    public func closeSession(_ session: String) {
        let ending = state.withLock { state in state.subscribers.values.filter { $0.session == session }.map(\.changes) }
        for changes in ending {
            changes.yield(Change(key: Self.endKey, version: 1))
            changes.finish()
        }
    }

    /// Tells `key`'s watchers to render again without a new version: when
    /// the version could not be recorded, it must not drift from the database's.
    public func nudge(_ key: LiveKey) { deliver(Change(key: key, version: version(of: key))) }

    /// Puts `beatKey` into every stream's changes every `interval` on
    /// `clock`, from the first call on (later calls change nothing): one
    /// sleeping task for all the streams, not one each. The streams beat a
    /// slice at a time, `heartbeatSlices` slices an interval: 18,000 streams
    /// beating at once held pages up for the length of the burst (a normal
    /// client's p99 up to 7x its value without streams).
    public func keepBeating(every interval: Duration, on clock: any Clock<Duration>) {
        heartbeat.withLock { heartbeat in
            // Not after `closeAll()`, which cancels it under this lock: nothing would stop it then.
            guard heartbeat == nil, !isClosed else { return }
            heartbeat = Task { [weak self] in
                var slice = 0
                while true {
                    try? await clock.sleep(for: interval / Self.heartbeatSlices)
                    guard !Task.isCancelled, let self else { return }
                    self.beat(slice: slice)
                    slice = (slice + 1) % Self.heartbeatSlices
                }
            }
        }
    }

    /// The slices the streams' heartbeats are spread over, each interval.
    public static let heartbeatSlices = 15

    /// The heartbeat of the streams in `slice` (of `heartbeatSlices`), now.
    func beat(slice: Int) {
        let due = state.withLock { state in
            state.subscribers.compactMap { id, subscriber in id % Self.heartbeatSlices == slice ? subscriber.changes : nil }
        }
        for changes in due { changes.yield(Change(key: Self.beatKey, version: 0)) }
    }

    deinit { heartbeat.withLock { $0?.cancel() } }

    /// Whether `closeAll()` ran: the replica is stopping.
    public var isClosed: Bool { state.withLock { $0.closed } }

    /// Ends every stream and takes no more: before the server stops, so that stopping stays fast.
    public func closeAll() {
        let ending = state.withLock { state in
            state.closed = true
            return state.subscribers.values.map(\.changes)
        }
        heartbeat.withLock { $0?.cancel() }
        for changes in ending { changes.finish() }
    }

    private func deliver(_ change: Change) {
        // Yield outside the lock: a waiting reader may run at once.
        let watching = state.withLock { state in state.byKey[change.key].map { Array($0.values) } ?? [] }
        for changes in watching { changes.yield(change) }
    }

    private func unsubscribe(_ id: Int) {
        state.withLock { state in _ = state.remove(id) }
    }
}

/// One stream's changes; ended by the hub (sign-out, stop) or by `end()`.
public struct LiveSubscription: Sendable {
    /// The changes to the keys subscribed to, newest few kept.
    public let changes: LiveChanges

    /// Ends the subscription: `changes` finishes.
    public func end() { changes.finish() }

    /// Ends the subscription for a reader gone: what is queued is dropped,
    /// and the change `changes` is serving now is cancelled.
    public func cancel() { changes.cancel() }

    /// Puts `LiveHub.nudgeKey` into `changes`, to wake the stream.
    public func nudge() { changes.yield(LiveHub.Change(key: LiveHub.nudgeKey, version: 0)) }
}
