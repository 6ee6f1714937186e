import Synchronization

/// Rendered sections kept between requests, keyed by what each one's output
/// depends on: its `cacheKey` and the versions of its `liveKeys`. A write
/// that changes a section's data raises a version, so the next page asks
/// for a key nobody stored and the section loads again; nothing is ever
/// invalidated by hand.
///
/// Bounded by bytes, not entries: past `capacity`, the entries used least
/// recently go.
public final class SectionCache: Sendable {
    /// What the cache did since it was made, for metrics.
    public struct Statistics: Sendable, Equatable {
        /// Lookups that found the section's content.
        public var hits = 0
        /// Lookups that did not find it.
        public var misses = 0
        /// Contents rendered and kept: one a change of a card, however many readers it has.
        public var stores = 0
        /// Entries dropped to make room.
        public var evictions = 0
        /// What the entries hold now, keys and content.
        public var bytes = 0
        /// Entries held now.
        public var entries = 0
    }

    /// The most the entries may hold, in bytes.
    public let capacity: Int
    private let state: Mutex<LeastRecentlyUsed<String, [UInt8]>>

    /// A cache of at most `capacity` bytes; 0 keeps nothing.
    public init(capacity: Int) {
        precondition(capacity >= 0, "a cache's capacity is a number of bytes")
        self.capacity = capacity
        state = Mutex(LeastRecentlyUsed())
    }

    /// The content kept under `key`, now the most recently used; `nil` on a miss.
    public func content(for key: String) -> [UInt8]? {
        state.withLock { $0.take(key) }
    }

    /// Keeps `content` under `key`, dropping the least recently used
    /// entries past the capacity. Content larger than the whole cache is not kept.
    public func store(_ content: [UInt8], for key: String) {
        let size = Self.size(of: key, content)
        guard size <= capacity else { return }
        state.withLock { entries in
            entries.statistics.stores += 1
            entries.put(key, content, size: size, capacity: capacity)
        }
    }

    /// The cache's counts now.
    public var statistics: Statistics { state.withLock { $0.statistics } }

    /// What an entry costs: its key, its content and the bookkeeping around them.
    static func size(of key: String, _ content: [UInt8]) -> Int { size(of: key, contentBytes: content.count) }

    static func size(of key: String, contentBytes: Int) -> Int { key.utf8.count + contentBytes + 96 }

    /// Whether content of `count` bytes under `key` could be kept at all: if not, it is not copied out to be offered.
    func couldKeep(_ count: Int, under key: String) -> Bool { Self.size(of: key, contentBytes: count) <= capacity }
}
