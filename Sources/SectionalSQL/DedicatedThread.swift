#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A detached system thread: database work must block a thread of its
/// own, never one of Swift's cooperative pool or Dispatch's.
public enum DedicatedThread {
    private final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    /// Runs `body` on a new detached thread.
    public static func start(_ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, start)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }
}
