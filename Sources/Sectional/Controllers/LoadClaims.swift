import Synchronization

/// Hands a round's loads, one at a time, to the child tasks that run them.
///
/// A child task costs about 7,000 instructions, and a SQLite read none of
/// the waiting it exists for. So a round starts one runner, which runs load
/// after load on the page's thread for as long as each ends without
/// suspending; when one suspends (a PostgreSQL query, a remote service), the
/// page's task gets its thread back and starts another runner for the rest.
/// Loads that never wait share one task; loads that wait still overlap. A
/// runner the runtime queues instead of starting at once takes one load
/// when it starts, and the page's task starts at most one runner a load.
/// Not generic: a generic class's deinit looks its element types up at run time.
final class LoadClaims: Sendable {
    /// How many loads the round has.
    let count: Int
    private let next = Atomic<Int>(0)
    /// The runner running on the page's thread now, before its first
    /// suspension: only it claims a second load; -1 when none.
    private let onPageThread = Atomic<Int>(-1)
    /// Loads finished before their runner first suspended, for the page's task.
    private let atOnce: Mutex<(taken: Bool, finished: [FinishedLoad])>

    init(count: Int) {
        self.count = count
        var finished: [FinishedLoad] = []
        finished.reserveCapacity(count)
        atOnce = Mutex((false, finished))
    }

    /// Whether a load is still to be claimed.
    var hasUnclaimed: Bool { next.load(ordering: .relaxed) < count }

    /// The page's task starts runner `runner`, which runs on its thread until it suspends.
    func starting(_ runner: Int) { onPageThread.store(runner, ordering: .relaxed) }

    /// `addImmediateTask` returned: the runner finished or suspended.
    func returned() { onPageThread.store(-1, ordering: .relaxed) }

    /// The next load for `runner`: its first always (a runner the runtime
    /// queued instead of starting at once still takes one), then more only
    /// while it runs on the page's thread, never once it has waited.
    func claim(by runner: Int, first: Bool) -> Int? {
        guard first || onPageThread.load(ordering: .relaxed) == runner else { return nil }
        let index = next.add(1, ordering: .relaxed).oldValue
        return index < count ? index : nil
    }

    /// Keeps a load `runner` finished for the page's task, if it finished
    /// on the page's thread. - Returns: `false` when the runner must return it itself.
    func keepAtOnce(_ finished: FinishedLoad, by runner: Int) -> Bool {
        guard onPageThread.load(ordering: .relaxed) == runner else { return false }
        return atOnce.withLock { state in
            guard !state.taken else { return false }
            state.finished.append(finished)
            return true
        }
    }

    /// The loads finished on the page's thread; later ones come back from their runners.
    func takeAtOnce() -> [FinishedLoad] {
        atOnce.withLock { state in
            state.taken = true
            return state.finished
        }
    }
}

/// A load of a round as it ended, by its index in the round.
struct FinishedLoad: Sendable {
    let index: Int
    let result: Result<any Sendable, any Error>
    let duration: Duration
    /// Whether the load was cut at its deadline.
    let cut: Bool
}
