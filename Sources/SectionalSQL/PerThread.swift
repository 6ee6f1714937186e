#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One object of `Value` for each thread that asks, in thread-local storage:
/// found without a lock, made on a thread's first use, released when the
/// thread ends.
final class PerThread<Value: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () -> Value

    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { stored in
            if let stored { Unmanaged<AnyObject>.fromOpaque(stored).release() }
        }
        precondition(status == 0, "no thread-local key (pthread_key_create: \(status))")
        self.key = key
    }

    /// This thread's object, made now if it has none.
    var current: Value {
        if let existing { return existing }
        let value = make()
        pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(value).toOpaque())
        return value
    }

    /// This thread's object, if it has made one.
    var existing: Value? {
        guard let stored = pthread_getspecific(key) else { return nil }
        return unsafeDowncast(Unmanaged<AnyObject>.fromOpaque(stored).takeUnretainedValue(), to: Value.self)
    }
}
