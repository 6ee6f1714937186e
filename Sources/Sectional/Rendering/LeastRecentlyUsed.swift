/// Entries in order of use, in a list from the newest to the oldest; the
/// dictionary holds them, the list only points at them. What the cache of
/// cards and the kept answers' tags are both made of, each entry costing
/// the size it is put with.
///
/// Inlinable, like `StampedMemo`, so that the modules using it get it
/// specialized for their keys: called as generic code across modules, each
/// look-up asked the runtime for its types' metadata (part of the cost
/// `StampedMemo` counts).
@usableFromInline
struct LeastRecentlyUsed<Key: Hashable, Value>: ~Copyable {
    @usableFromInline
    final class Entry {
        @usableFromInline let key: Key
        @usableFromInline var content: Value
        @usableFromInline var size: Int
        @usableFromInline unowned(unsafe) var older: Entry?
        @usableFromInline unowned(unsafe) var newer: Entry?

        @inlinable init(key: Key, content: Value, size: Int) {
            self.key = key
            self.content = content
            self.size = size
        }
    }

    @usableFromInline var entries: [Key: Entry] = [:]
    @usableFromInline unowned(unsafe) var newest: Entry?
    @usableFromInline unowned(unsafe) var oldest: Entry?
    @usableFromInline var statistics = SectionCache.Statistics()

    @inlinable init() {}

    @inlinable mutating func take(_ key: Key) -> Value? { take(key) { $0 } }

    /// The entry under `key` as `body` reads it, changing it in place; `nil` when there is none.
    @inlinable mutating func take<Result>(_ key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let entry = entries[key] else {
            statistics.misses += 1
            return nil
        }
        statistics.hits += 1
        touch(entry)
        return body(&entry.content)
    }

    @inlinable mutating func put(_ key: Key, _ content: Value, size: Int, capacity: Int) {
        if let entry = entries[key] {
            statistics.bytes += size - entry.size
            entry.content = content
            entry.size = size
            touch(entry)
        } else {
            let entry = Entry(key: key, content: content, size: size)
            entries[key] = entry
            pushNewest(entry)
            statistics.bytes += size
            statistics.entries += 1
        }
        while statistics.bytes > capacity, let oldest {
            unlink(oldest)
            statistics.bytes -= oldest.size
            statistics.entries -= 1
            statistics.evictions += 1
            entries[oldest.key] = nil  // last: the dictionary's reference is the one that keeps it
        }
    }

    /// Drops the entry under `key`, if any.
    @inlinable mutating func remove(_ key: Key) {
        guard let entry = entries[key] else { return }
        unlink(entry)
        statistics.bytes -= entry.size
        statistics.entries -= 1
        entries[key] = nil  // last: the dictionary's reference is the one that keeps it
    }

    @inlinable mutating func touch(_ entry: Entry) {
        guard entry !== newest else { return }
        unlink(entry)
        pushNewest(entry)
    }

    @inlinable mutating func pushNewest(_ entry: Entry) {
        entry.older = newest
        entry.newer = nil
        newest?.newer = entry
        newest = entry
        if oldest == nil { oldest = entry }
    }

    @inlinable mutating func unlink(_ entry: Entry) {
        if let newer = entry.newer { newer.older = entry.older } else { newest = entry.older }
        if let older = entry.older { older.newer = entry.newer } else { oldest = entry.newer }
        entry.older = nil
        entry.newer = nil
    }
}
