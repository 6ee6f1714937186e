import Foundation

/// Runs blocking work (socket reads, `Server.stop()`) on a thread of its own
/// and awaits its result.
///
/// The server answers async routes on Swift's concurrency pool, which has one
/// thread per core. A test that blocked those threads on a socket read would
/// starve the very tasks it waits for; a thread of its own cannot.
public func onOwnThread<Result: Sendable>(_ work: @escaping @Sendable () throws -> Result) async throws -> Result {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Swift.Result { try work() }) }.start()
    }
}
