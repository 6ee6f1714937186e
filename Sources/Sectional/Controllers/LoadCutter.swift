import Synchronization

/// Cuts loads at their deadlines by cancelling their tasks, from whichever
/// thread the deadline comes on.
///
/// A load that never suspends (a SQLite read on the request's thread) holds
/// that thread until it returns, so nothing on it can stop the load; its
/// task's cancellation, raised from the timer's thread, can: the database
/// pool turns it into `sqlite3_interrupt`. Each load's task registers itself
/// here while it runs, so that a cut reaches exactly the load past its
/// deadline and never a task that has finished.
///
/// Each load's deadline runs from its own start: loads that hold the thread
/// run one after another, and one cut at its deadline must not leave the
/// siblings after it none of theirs.
final class LoadCutter: Sendable {
    private enum Slot {
        case notStarted
        case running(RunningTask)
        case finished
        case cut
    }

    /// A running load's task. Only ever used under the lock, while the task
    /// is known to run: it leaves its slot (`end`) before it finishes.
    private struct RunningTask: @unchecked Sendable {
        let task: UnsafeCurrentTask
    }

    private let slots: Mutex<[Slot]>

    /// A cutter for `count` loads, by index.
    init(count: Int) {
        slots = Mutex(Array(repeating: .notStarted, count: count))
    }

    /// Called by load `index`'s task as it starts.
    func begin(_ index: Int) {
        withUnsafeCurrentTask { task in
            guard let task else { return }
            slots.withLock { $0[index] = .running(RunningTask(task: task)) }
        }
    }

    /// Called by load `index`'s task as it ends. - Returns: whether it was cut.
    func end(_ index: Int) -> Bool {
        slots.withLock { slots in
            if case .cut = slots[index] { return true }
            slots[index] = .finished
            return false
        }
    }

    /// Cuts load `index`, unless it has finished: its task is cancelled.
    func cut(_ index: Int) {
        slots.withLock { slots in
            guard case .running(let running) = slots[index] else { return }
            running.task.cancel()
            slots[index] = .cut
        }
    }
}
