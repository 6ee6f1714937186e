import Synchronization

/// Values kept with the versions of the live data they were made from:
/// one is given back only while every version stands and before it expires,
/// so nothing is ever invalidated by hand. A page's routes keep three: the
/// tags of the answers they sent whole, to answer a request naming one with
/// `304` and nothing read; who a credential is; and how each request's page
/// is laid out, to make a page again without reading either.
///
/// Only a value made from versioned inputs alone is kept (`AnswerBasis`).
/// Bounded by bytes, the least recently used going first; `size` counts
/// an entry's key and value.
///
/// Its look-up and keeping are inlinable: the modules that use it then get
/// them specialized for their keys and values. Called as generic code from
/// another module, each look-up asked the runtime for its types' metadata
/// and hashed through witness tables: 6,800 instructions of a `304`'s
/// 89,500 on a build without cross-module optimisation, against 2,000
/// specialized.
public final class StampedMemo<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    @usableFromInline
    struct Entry: Sendable {
        @usableFromInline let value: Value
        @usableFromInline let basis: AnswerBasis
        /// The versions' change count when every version was last found
        /// current: at the same count none has changed since, and only the
        /// expiry needs a look (five version lookups were a third of a `304`).
        @usableFromInline var confirmedAt: Int?

        @inlinable init(value: Value, basis: AnswerBasis) {
            self.value = value
            self.basis = basis
        }
    }

    /// The most the entries may hold, in bytes.
    public let capacity: Int
    @usableFromInline let state: Mutex<LeastRecentlyUsed<Key, Entry>>
    @usableFromInline let size: @Sendable (Key, Value) -> Int

    /// At most `capacity` bytes of entries, each costing `size` and 64 bytes a version.
    public init(capacity: Int, size: @escaping @Sendable (Key, Value) -> Int) {
        self.capacity = capacity
        self.size = size
        state = Mutex(LeastRecentlyUsed())
    }

    /// The value kept under `key` if every version it stands on is still
    /// current in `versions` and it has not expired; `nil` otherwise. A memo
    /// is asked with one source of versions, always the same: an entry
    /// confirmed at one source's change count stands at that count.
    @inlinable public func standing(_ key: Key, versions: any LiveVersionSource, now: ContinuousClock.Instant = .now) -> Value? {
        // Counted before any version is read: a change made during the reads moves it on.
        let changes = versions.changeCount
        return state.withLock { entries in
            let found = entries.take(key) { entry -> Value? in
                let isUnchanged = changes != nil && entry.confirmedAt == changes
                guard isUnchanged ? !entry.basis.hasExpired(at: now) : entry.basis.stands(in: versions, at: now) else { return nil }
                entry.confirmedAt = changes
                return entry.value
            }
            guard let found else { return nil }
            // Never to stand again: versions only grow, time only passes.
            if found == nil { entries.remove(key) }
            return found
        }
    }

    /// Keeps `value` under `key`, when `basis` is versioned throughout.
    @inlinable public func keep(_ value: Value, basis: AnswerBasis, for key: Key) {
        guard basis.isVersioned else { return }
        let cost = size(key, value) + 64 * (basis.read.count + basis.cards.count) + 96
        guard cost <= capacity else { return }
        let entry = Entry(value: value, basis: basis)
        state.withLock { $0.put(key, entry, size: cost, capacity: capacity) }
    }
}

/// Gathers what a value is made from while it is made: the versions read,
/// and the earliest expiry; once anything unversioned goes in, it cannot be
/// kept (`StampedMemo`).
public struct AnswerBasis: Sendable {
    /// Each key read, at its version (a visitor, a layout).
    @usableFromInline var read: [(key: LiveKey, version: Int)] = []
    /// Each card's live keys, at the sum of their versions.
    @usableFromInline var cards: [(keys: Set<LiveKey>, version: Int)] = []
    /// The earliest expiry, as `ReadStamp` keeps it.
    var expiry: Duration?
    /// Whether nothing unversioned went in (and something may be kept at all).
    public private(set) var isVersioned: Bool

    /// A basis to gather into; with `keeping` false, one that gathers
    /// nothing, for a server that keeps nothing.
    public init(keeping: Bool = true) { isVersioned = keeping }

    /// What was read at `stamp`; `nil`: read unversioned.
    public mutating func add(_ stamp: ReadStamp?) {
        guard isVersioned else { return }
        guard let stamp else { return isVersioned = false }
        // The stamp's own array when it is the first: no copy made.
        if read.isEmpty { read = stamp.versions } else { read += stamp.versions }
        if let until = stamp.expiry { expiry = min(expiry ?? until, until) }
    }

    /// Whether every version is still current in `versions`, and `now` is before it expires.
    @usableFromInline func stands(in versions: any LiveVersionSource, at now: ContinuousClock.Instant) -> Bool {
        if hasExpired(at: now) { return false }
        for stamp in read where versions.version(of: stamp.key) != stamp.version { return false }
        for stamp in cards where versions.version(of: stamp.keys) != stamp.version { return false }
        return true
    }

    /// Whether `now` is past when it stops holding.
    @usableFromInline func hasExpired(at now: ContinuousClock.Instant) -> Bool { expiry.map { now.sinceOrigin >= $0 } ?? false }

    /// A card of the page: versioned when it is cacheable, was not left
    /// out of the cache, and loaded (a fallback is never confirmed).
    public mutating func add(card child: SectionController) {
        guard isVersioned else { return }
        guard child.isVersioned else { return isVersioned = false }
        let keys = child.liveKeys
        guard !keys.isEmpty else { return }
        // The version read before the load: a change during it leaves the answer already stale.
        guard let version = child.liveVersion else { return isVersioned = false }
        cards.append((keys, version))
    }
}
