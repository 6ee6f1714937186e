/// Elements by instant, the earliest first: a binary min-heap.
struct DeadlineHeap<Element> {
    struct Entry {
        let element: Element
        let instant: ContinuousClock.Instant
    }

    private var entries: [Entry] = []

    var count: Int { entries.count }

    /// The earliest entry (of equal instants, any one).
    var first: Entry? { entries.first }

    mutating func insert(_ element: Element, at instant: ContinuousClock.Instant) {
        entries.append(Entry(element: element, instant: instant))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].instant < entries[parent].instant else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes the earliest entry; the heap must not be empty.
    mutating func removeFirst() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var earliest = parent
            if left < entries.count, entries[left].instant < entries[earliest].instant { earliest = left }
            if right < entries.count, entries[right].instant < entries[earliest].instant { earliest = right }
            guard earliest != parent else { return }
            entries.swapAt(parent, earliest)
            parent = earliest
        }
    }
}
