import Synchronization

/// The tags of answers sent whole, each with what its content was made
/// from: the versions of the live data of its cards, its visitor's session
/// and its layout. A request that names a tag still standing is answered
/// `304` from here, with nothing loaded, read or rendered.
///
/// Only an answer made from versioned inputs alone is kept: every card
/// cacheable and loaded, the visitor and the layout stamped (`ReadStamp`).
/// Bounded by bytes, the least recently used going first.
public final class KeptAnswers: Sendable {
    /// One answer's tag, and what it stands on.
    public struct Answer: Sendable {
        /// The `ETag` it was sent with.
        public let tag: String
        /// Who it was for, for the access log.
        public let user: String?
        let stamps: [(keys: Set<LiveKey>, version: Int)]
        let expires: ContinuousClock.Instant?

        var size: Int { tag.utf8.count + (user?.utf8.count ?? 0) + 64 * stamps.count + 96 }
    }

    /// Gathers what an answer is made from while it is made; `nil` once
    /// anything unversioned went in, when it cannot be kept.
    public struct Basis: Sendable {
        var stamps: [(keys: Set<LiveKey>, version: Int)] = []
        var expires: ContinuousClock.Instant?
        var isVersioned = true

        public init() {}

        /// What was read at `stamp`; `nil`: read unversioned.
        public mutating func add(_ stamp: ReadStamp?) {
            guard let stamp else { return isVersioned = false }
            for (key, version) in stamp.versions { stamps.append(([key], version)) }
            if let until = stamp.expires { expires = min(expires ?? until, until) }
        }

        /// A card of the page: versioned when it is cacheable, was not left
        /// out of the cache, and loaded (a fallback is never confirmed).
        public mutating func add(card child: SectionController) {
            guard child.isVersioned else { return isVersioned = false }
            let keys = child.liveKeys
            guard !keys.isEmpty else { return }
            // The version read before the load: a change during it leaves the answer already stale.
            guard let version = child.liveVersion else { return isVersioned = false }
            stamps.append((keys, version))
        }
    }

    /// The most the entries may hold, in bytes.
    public let capacity: Int
    private let state: Mutex<LeastRecentlyUsed<Answer>>

    /// At most `capacity` bytes of answers.
    public init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(LeastRecentlyUsed())
    }

    /// The answer kept under `key` if every version it stands on is still
    /// current in `versions` and it has not expired; `nil` otherwise.
    public func standing(_ key: String, versions: any LiveVersionSource, now: ContinuousClock.Instant = .now) -> Answer? {
        guard let answer = state.withLock({ $0.take(key) }) else { return nil }
        if let expires = answer.expires, now >= expires { return nil }
        for stamp in answer.stamps where versions.version(of: stamp.keys) != stamp.version { return nil }
        return answer
    }

    /// Keeps the answer tagged `tag` under `key`, when `basis` is versioned throughout.
    public func keep(tag: String, user: String?, basis: Basis, for key: String) {
        guard basis.isVersioned else { return }
        let answer = Answer(tag: tag, user: user, stamps: basis.stamps, expires: basis.expires)
        let size = key.utf8.count + answer.size
        guard size <= capacity else { return }
        state.withLock { $0.put(key, answer, size: size, capacity: capacity) }
    }
}
