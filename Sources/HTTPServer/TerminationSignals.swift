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
    @discardableResult
    public static func wait(timeout: Double) -> Int32? {
        var set = signals()
        var limit = timespec(tv_sec: Int(timeout), tv_nsec: Int((timeout - timeout.rounded(.down)) * 1e9))
        let received = sigtimedwait(&set, nil, &limit)
        return received > 0 ? received : nil
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }
}
