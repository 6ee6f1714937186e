import Synchronization

/// Cuts a round's loads at their deadlines by cancelling their tasks (or,
/// for loads run in the request's own task, by stopping their reads), from
/// whichever thread the deadline comes on.
///
/// A load that never suspends (a SQLite read on the request's thread) holds
/// that thread until it returns, so nothing on it can stop the load. In a
/// task of its own, its task's cancellation, raised from the watchdog's
/// thread, can: a SQLite connection checks for it as it steps, and stops.
/// In the request's task, `RunningLoad(stop:)` interrupts the read instead. Each load's task registers itself
/// here while it runs, so that a cut reaches exactly the loads past their
/// deadline and never a task that has finished.
///
/// Each load's deadline runs from its own start: loads that hold the thread
/// run one after another, and one cut at its deadline must not leave the
/// siblings after it none of theirs. Times are offsets from the round's start.
final class LoadCutter: @unchecked Sendable {
    private enum State {
        case notStarted
        case running(RunningLoad, since: Duration)
        case finished
        case cut
    }

    /// What cuts a running load: its task, cancelled, or, for a load run in
    /// the request's own task, what stops its read. The task is kept past
    /// `withUnsafeCurrentTask`'s closure:
    /// sound only because it is used under the lock, while the task is known
    /// to run (it leaves its slot in `end`, under the same lock, before it
    /// returns). An object, not a struct: `UnsafeCurrentTask`'s layout is the
    /// standard library's to change, so every state holding one in place went
    /// through the runtime's generic enum functions (1,800 instructions a page).
    final class RunningLoad: @unchecked Sendable {
        let task: UnsafeCurrentTask?
        /// What stops a load run in the request's task, which a cut must not cancel.
        let stop: (@Sendable () -> Void)?
        init(task: UnsafeCurrentTask) {
            self.task = task
            stop = nil
        }
        init(stop: @escaping @Sendable () -> Void) {
            task = nil
            self.stop = stop
        }

        func cut() {
            if let stop { stop() } else { task?.cancel() }
        }
    }

    private let deadlines: [Duration]
    private let states: Mutex<[State]>
    /// Where `LoadWatchdog` keeps this round, guarded by its lock (hence `@unchecked`; nor
    /// checked for overlapping access at run time, as the watchdog's own state is not).
    @exclusivity(unchecked) var watchIndex = 0

    /// A cutter for loads with these deadlines, by index.
    init(deadlines: [Duration]) {
        self.deadlines = deadlines
        states = Mutex(Array(filled: deadlines.count, with: .notStarted))
    }

    /// When the first load may be due: the shortest deadline.
    var firstDue: Duration { deadlines.min() ?? .zero }

    /// Called by load `index`'s task as it starts, `elapsed` into the round.
    func begin(_ index: Int, at elapsed: Duration) {
        withUnsafeCurrentTask { task in
            guard let task else { return }
            states.withLock { $0[index] = .running(RunningLoad(task: task), since: elapsed) }
        }
    }

    /// Called as load `index` starts in the request's own task, `elapsed`
    /// into the round: a cut calls `stop` (which stops its read where it
    /// runs), and never cancels the task, which goes on to the next load.
    /// `stop` is made once for the round's loads (`RunningLoad(stop:)`).
    func begin(_ index: Int, at elapsed: Duration, stoppedBy stop: RunningLoad) {
        states.withLock { $0[index] = .running(stop, since: elapsed) }
    }

    /// Called by load `index`'s task as it ends. - Returns: whether it was cut.
    func end(_ index: Int) -> Bool {
        states.withLock { states in
            if case .cut = states[index] { return true }
            states[index] = .finished
            return false
        }
    }

    /// Cuts every running load whose deadline has passed `elapsed` into the
    /// round. - Returns: when to look again (the earliest a load still to
    /// finish may be due; one not started yet has at least its whole
    /// deadline from now), or `nil` when every load has ended.
    func cutOverdue(at elapsed: Duration) -> Duration? {
        states.withLock { states in
            var next: Duration?
            for index in states.indices {
                let due: Duration
                switch states[index] {
                case .running(let running, let since):
                    guard since + deadlines[index] > elapsed else {
                        running.cut()
                        states[index] = .cut
                        continue
                    }
                    due = since + deadlines[index]
                case .notStarted: due = elapsed + deadlines[index]
                case .finished, .cut: continue
                }
                next = min(next ?? due, due)
            }
            return next
        }
    }
}
