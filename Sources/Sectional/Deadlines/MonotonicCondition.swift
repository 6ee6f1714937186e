#if canImport(Glibc)
    import Glibc
#endif

/// A C library lock with a condition whose timed waits run on the monotonic
/// clock: a change of the wall clock must not move a deadline. What the
/// deadline threads wait on.
final class MonotonicCondition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }

    func unlock() { pthread_mutex_unlock(mutex) }

    /// Wakes the thread waiting, if one is.
    func signal() { pthread_cond_signal(condition) }

    /// Waits, the lock held, until signalled.
    func wait() { pthread_cond_wait(condition, mutex) }

    /// Waits, the lock held, until signalled or `interval` has passed.
    func wait(for interval: Duration) {
        var until = Self.monotonicTime(after: interval)
        pthread_cond_timedwait(condition, mutex, &until)
    }

    /// The monotonic clock's reading `interval` from now (at most a day: the
    /// thread looks again when it wakes), as `pthread_cond_timedwait` takes it.
    /// `ContinuousClock` counts time suspended too, the monotonic clock not:
    /// across a suspend of the machine a wait ends late, never early.
    private static func monotonicTime(after interval: Duration) -> timespec {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        let (seconds, attoseconds) = min(interval, .seconds(86_400)).components
        let nanoseconds = Int(time.tv_nsec) + Int(attoseconds / 1_000_000_000) + 1
        time.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        time.tv_nsec = nanoseconds % 1_000_000_000
        return time
    }

    /// Starts `body` on a detached thread of its own.
    static func startThread(_ body: @escaping @Sendable () -> Never) {
        let start = Unmanaged.passRetained(ThreadStart(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in Unmanaged<ThreadStart>.fromOpaque(raw!).takeRetainedValue().body() }, start)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    private final class ThreadStart: Sendable {
        let body: @Sendable () -> Never
        init(_ body: @escaping @Sendable () -> Never) { self.body = body }
    }
}
