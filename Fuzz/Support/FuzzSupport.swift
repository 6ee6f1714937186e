// Shared by every harness: compiled into each one's module, not a library.
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Stops the run with a message; libFuzzer saves the input that caused it.
func fuzzFailure(_ message: String, input: [UInt8]) -> Never {
    let shown = String(decoding: input.prefix(200), as: UTF8.self).debugDescription
    fatalError("\(message)\n  input (\(input.count) bytes): \(shown)")
}

/// Runs async work to its end from the fuzzer's synchronous entry point.
/// The entry point runs on libFuzzer's own thread, never on Swift's
/// concurrency pool, so waiting here cannot starve the task it waits for.
func runBlocking<Result: Sendable>(_ body: @escaping @Sendable () async -> Result) -> Result {
    let box = Mutex<Result?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let result = await body()
        box.withLock { $0 = result }
        done.signal()
    }
    done.wait()
    return box.withLock { $0! }
}

/// An environment variable, or `fallback`.
func environment(_ name: String, _ fallback: String) -> String {
    getenv(name).map { String(cString: $0) } ?? fallback
}
