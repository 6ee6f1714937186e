import SectionalSQL
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A connection made on another thread, handed to the pipeline's thread.
struct Connection: @unchecked Sendable {
    let pointer: OpaquePointer
    let finish: @convention(c) (OpaquePointer?) -> Void
}

/// A lane's connection being made again on a thread of its own: every half
/// second until it can, or the lane closes.
final class Reconnection: Sendable {
    private let state = Mutex<(made: Connection?, closed: Bool)>((nil, false))

    func connect(then wake: () -> Void, _ make: () throws(SQLError) -> Connection) {
        while !state.withLock({ $0.closed }) {
            if let made = try? make() {
                let kept = state.withLock { state in
                    guard !state.closed else { return false }
                    state.made = made
                    return true
                }
                if kept { wake() } else { made.finish(made.pointer) }
                return
            }
            usleep(500_000)
        }
    }

    func take() -> Connection? {
        state.withLock { state in
            defer { state.made = nil }
            return state.made
        }
    }

    func close() {
        let made = state.withLock { state in
            state.closed = true
            defer { state.made = nil }
            return state.made
        }
        if let made { made.finish(made.pointer) }
    }
}
