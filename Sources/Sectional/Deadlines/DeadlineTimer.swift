import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// The thread behind ``DeadlineClock``: a heap of sleepers by instant, and
/// one thread that sleeps until the earliest that still waits.
///
/// A cancelled sleeper stays in the heap until it reaches the top, where it
/// is dropped unfired: cancelling costs no wake-up. Deadlines of one length
/// arrive in order, so a new one is rarely earlier than the instant the
/// thread waits for, and adding one rarely wakes it either.
final class DeadlineTimer: @unchecked Sendable {
    static let shared = DeadlineTimer()

    /// One sleep: waiting for its continuation, then fired or cancelled, once.
    final class Sleeper: Sendable {
        private enum State {
            case idle
            case waiting(CheckedContinuation<Void, any Error>)
            case fired, cancelled
        }

        private let state = Mutex(State.idle)

        var isCancelled: Bool {
            state.withLock { if case .cancelled = $0 { true } else { false } }
        }

        /// Waits with `continuation`, or answers it now when already fired or cancelled.
        func wait(with continuation: CheckedContinuation<Void, any Error>) {
            let ended: Result<Void, any Error>? = state.withLock { state in
                switch state {
                case .idle:
                    state = .waiting(continuation)
                    return nil
                case .fired: return .success(())
                case .cancelled: return .failure(CancellationError())
                case .waiting: preconditionFailure("a sleeper waits once")
                }
            }
            if let ended { continuation.resume(with: ended) }
        }

        func fire() { end(as: .fired, with: .success(())) }

        func cancel() { end(as: .cancelled, with: .failure(CancellationError())) }

        private func end(as ending: State, with result: Result<Void, any Error>) {
            let continuation: CheckedContinuation<Void, any Error>?? = state.withLock { state in
                switch state {
                case .idle:
                    state = ending
                    return .some(nil)
                case .waiting(let continuation):
                    state = ending
                    return continuation
                case .fired, .cancelled:
                    return nil
                }
            }
            continuation??.resume(with: result)
        }
    }

    /// Guards everything below; the thread waits on it.
    private let condition = MonotonicCondition()
    private var heap = DeadlineHeap<Sleeper>()
    /// The instant the thread waits for; `nil` while it waits for a sleeper, or is not started.
    private var wakeAt: ContinuousClock.Instant?
    private var started = false

    /// A timer of its own, for a test; its thread starts with its first sleeper and lives as long as the process.
    init() {}

    /// Fires `sleeper` at `instant`, unless it is cancelled first.
    func add(_ sleeper: Sleeper, until instant: ContinuousClock.Instant) {
        condition.lock()
        heap.insert(sleeper, at: instant)
        if !started {
            started = true
            // The thread keeps the timer for good: it never ends.
            MonotonicCondition.startThread { [self] in run() }
        }
        if wakeAt.map({ instant < $0 }) ?? true { condition.signal() }
        condition.unlock()
    }

    /// The instant the thread waits for now; `nil` while it waits for a sleeper or runs (for tests).
    var waitingUntil: ContinuousClock.Instant? {
        condition.lock()
        defer { condition.unlock() }
        return wakeAt
    }

    /// How many sleepers the heap holds, cancelled ones not yet dropped included.
    var heldCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return heap.count
    }

    /// The thread's life: fire what is due, drop what was cancelled, wait for the next.
    private func run() -> Never {
        condition.lock()
        while true {
            let now = ContinuousClock.now
            var due: [Sleeper] = []
            while let top = heap.first, top.instant <= now || top.element.isCancelled {
                heap.removeFirst()
                if top.instant <= now { due.append(top.element) }
            }
            if !due.isEmpty {
                // Resumed without the lock: a resumed task may add a sleeper at once.
                condition.unlock()
                for sleeper in due { sleeper.fire() }
                condition.lock()
                continue
            }
            wakeAt = heap.first?.instant
            if let wakeAt { condition.wait(for: now.duration(to: wakeAt)) } else { condition.wait() }
        }
    }
}
