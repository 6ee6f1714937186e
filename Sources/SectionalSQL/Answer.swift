import Synchronization

/// The caller's continuation, resumed once: by the work, or by cancellation
/// first, whichever comes first; a result that arrives before the
/// continuation is kept for it. Unchecked, since the state resumes it once:
/// a checked continuation allocates a record per statement.
package final class Answer<T: Sendable>: Sendable {
    private enum State {
        case empty
        case waiting(UnsafeContinuation<T, any Error>)
        case ready(Result<T, any Error>)
        case resumed
    }

    private let state = Mutex(State.empty)

    package init() {}

    package func wait(with continuation: UnsafeContinuation<T, any Error>) {
        let ready: Result<T, any Error>? = state.withLock { state in
            guard case .ready(let result) = state else {
                state = .waiting(continuation)
                return nil
            }
            state = .resumed
            return result
        }
        if let ready { continuation.resume(with: ready) }
    }

    package func resume(with result: Result<T, any Error>) {
        let continuation: UnsafeContinuation<T, any Error>? = state.withLock { state in
            switch state {
            case .empty:
                state = .ready(result)
                return nil
            case .waiting(let continuation):
                state = .resumed
                return continuation
            case .ready, .resumed:
                return nil
            }
        }
        continuation?.resume(with: result)
    }
}
