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
    /// An alarm's sleeper runs its action when it fires, on the timer's thread.
    final class Sleeper: Sendable {
        private enum State {
            case idle
            case waiting(CheckedContinuation<Void, any Error>)
            case fired, cancelled
        }

        private let state = Mutex(State.idle)
        private let action: (@Sendable () -> Void)?

        init(action: (@Sendable () -> Void)? = nil) { self.action = action }

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

        func fire() {
            guard let action else { return end(as: .fired, with: .success(())) }
            let due = state.withLock { state in
                guard case .idle = state else { return false }
                state = .fired
                return true
            }
            if due { action() }
        }

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

    /// Guards everything below; the thread waits on `condition`.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var heap = DeadlineHeap<Sleeper>()
    /// The instant the thread waits for; `nil` while it waits for a sleeper, or is not started.
    private var wakeAt: ContinuousClock.Instant?
    private var started = false

    /// A timer of its own, for a test; its thread starts with its first sleeper and lives as long as the process.
    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        // Monotonic: a change of the wall clock must not move a deadline.
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    /// Fires `sleeper` at `instant`, unless it is cancelled first.
    func add(_ sleeper: Sleeper, until instant: ContinuousClock.Instant) {
        pthread_mutex_lock(mutex)
        heap.insert(sleeper, at: instant)
        if !started {
            started = true
            startThread()
        }
        if wakeAt.map({ instant < $0 }) ?? true { pthread_cond_signal(condition) }
        pthread_mutex_unlock(mutex)
    }

    /// The instant the thread waits for now; `nil` while it waits for a sleeper or runs (for tests).
    var waitingUntil: ContinuousClock.Instant? {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return wakeAt
    }

    /// How many sleepers the heap holds, cancelled ones not yet dropped included.
    var heldCount: Int {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return heap.count
    }

    private func startThread() {
        // Retained for good: the thread never ends, and reads the timer for as long as it runs.
        let this = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in Unmanaged<DeadlineTimer>.fromOpaque(raw!).takeUnretainedValue().run() }, this)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    /// The thread's life: fire what is due, drop what was cancelled, wait for the next.
    private func run() -> Never {
        pthread_mutex_lock(mutex)
        while true {
            let now = ContinuousClock.now
            var due: [Sleeper] = []
            while let top = heap.first, top.instant <= now || top.element.isCancelled {
                heap.removeFirst()
                if top.instant <= now { due.append(top.element) }
            }
            if !due.isEmpty {
                // Resumed without the lock: a resumed task may add a sleeper at once.
                pthread_mutex_unlock(mutex)
                for sleeper in due { sleeper.fire() }
                pthread_mutex_lock(mutex)
                continue
            }
            wakeAt = heap.first?.instant
            if let wakeAt {
                var until = Self.monotonicTime(after: now.duration(to: wakeAt))
                pthread_cond_timedwait(condition, mutex, &until)
            } else {
                pthread_cond_wait(condition, mutex)
            }
        }
    }

    /// The monotonic clock's reading `interval` from now (at most a day: the
    /// thread looks again when it wakes), as `pthread_cond_timedwait` takes it.
    /// `ContinuousClock` counts time suspended too, the monotonic clock not:
    /// across a suspend of the machine a sleep ends late, never early.
    private static func monotonicTime(after interval: Duration) -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let (seconds, attoseconds) = min(interval, .seconds(86_400)).components
        let nanoseconds = Int(time.tv_nsec) + Int(attoseconds / 1_000_000_000) + 1
        time.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        time.tv_nsec = nanoseconds % 1_000_000_000
        return time
    }
}
