#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// SIGTERM and SIGINT, taken synchronously with `sigwait` instead of a
/// handler: no code runs in signal context, and no closure crosses threads.
public enum TerminationSignals {
    /// Blocks the signals for this thread and every thread it starts later.
    /// Call first thing in `main`, before any thread exists.
    public static func block() {
        var set = signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
    }

    /// Waits until SIGTERM or SIGINT arrives; returns its number.
    @discardableResult
    public static func wait() -> Int32 {
        var set = signals()
        var received: Int32 = 0
        sigwait(&set, &received)
        return received
    }

    /// Waits until SIGTERM or SIGINT arrives or `timeout` seconds pass; the signal, or `nil`.
    ///
    /// Another signal whose handler runs on this thread interrupts the wait
    /// (`EINTR`); it then goes on for the time left, so that a drain is never
    /// cut short by an unrelated signal.
    @discardableResult
    public static func wait(timeout: Double) -> Int32? {
        var set = signals()
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: .nanoseconds(Int64(max(0, timeout) * 1e9)))
        while true {
            let left = clock.now.duration(to: deadline)
            guard left > .zero else { return nil }
            let (seconds, attoseconds) = left.components
            var limit = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            let received = sigtimedwait(&set, nil, &limit)
            if received > 0 { return received }
            guard errno == EINTR else { return nil }
        }
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }
}
