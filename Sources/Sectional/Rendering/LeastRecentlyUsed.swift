/// Entries in order of use, in a list from the newest to the oldest; the
/// dictionary holds them, the list only points at them. What the cache of
/// cards and the kept answers' tags are both made of, each entry costing
/// the size it is put with.
struct LeastRecentlyUsed<Key: Hashable, Value>: ~Copyable {
    final class Entry {
        let key: Key
        var content: Value
        var size: Int
        unowned(unsafe) var older: Entry?
        unowned(unsafe) var newer: Entry?

        init(key: Key, content: Value, size: Int) {
            self.key = key
            self.content = content
            self.size = size
        }
    }

    var entries: [Key: Entry] = [:]
    unowned(unsafe) var newest: Entry?
    unowned(unsafe) var oldest: Entry?
    var statistics = SectionCache.Statistics()

    mutating func take(_ key: Key) -> Value? { take(key) { $0 } }

    /// The entry under `key` as `body` reads it, changing it in place; `nil` when there is none.
    mutating func take<Result>(_ key: Key, _ body: (inout Value) -> Result) -> Result? {
        guard let entry = entries[key] else {
            statistics.misses += 1
            return nil
        }
        statistics.hits += 1
        touch(entry)
        return body(&entry.content)
    }

    mutating func put(_ key: Key, _ content: Value, size: Int, capacity: Int) {
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
    mutating func remove(_ key: Key) {
        guard let entry = entries[key] else { return }
        unlink(entry)
        statistics.bytes -= entry.size
        statistics.entries -= 1
        entries[key] = nil  // last: the dictionary's reference is the one that keeps it
    }

    private mutating func touch(_ entry: Entry) {
        guard entry !== newest else { return }
        unlink(entry)
        pushNewest(entry)
    }

    private mutating func pushNewest(_ entry: Entry) {
        entry.older = newest
        entry.newer = nil
        newest?.newer = entry
        newest = entry
        if oldest == nil { oldest = entry }
    }

    private mutating func unlink(_ entry: Entry) {
        if let newer = entry.newer { newer.older = entry.older } else { newest = entry.older }
        if let older = entry.older { older.newer = entry.newer } else { oldest = entry.newer }
        entry.older = nil
        entry.newer = nil
    }
}
