import HTTPServer
import Synchronization

/// A streamed body's reader that takes bytes only when the test says so:
/// a client that stopped reading, or reads late.
final class HeldReader: ResponseBodySink {
    private struct State {
        var written: [UInt8] = []
        var taken = 0
        var onDrained: [@Sendable () -> Void] = []
        var abandoned = false
        var waiters: [(String, CheckedContinuation<Void, Never>)] = []
    }

    private let state = Mutex(State())

    func write(_ bytes: [UInt8]) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.abandoned else { return [] }
            state.written += bytes
            let text = String(decoding: state.written, as: UTF8.self)
            let ready = state.waiters.filter { text.contains($0.0) }.map(\.1)
            state.waiters.removeAll { text.contains($0.0) }
            return ready
        }
        ready.forEach { $0.resume() }
    }

    var isOpen: Bool { state.withLock { !$0.abandoned } }
    var unsentBytes: Int { state.withLock { $0.written.count - $0.taken } }
    var sentBytes: UInt64 { state.withLock { UInt64($0.taken) } }
    var isAbandoned: Bool { state.withLock { $0.abandoned } }

    func whenDrained(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.written.count > state.taken else { return true }
            state.onDrained.append(action)
            return false
        }
        if now { action() }
    }

    func abandon() { state.withLock { $0.abandoned = true } }

    /// Takes everything written, as a client that reads again would.
    func takeAll() {
        let drained = state.withLock { state -> [@Sendable () -> Void] in
            state.taken = state.written.count
            defer { state.onDrained = [] }
            return state.onDrained
        }
        drained.forEach { $0() }
    }

    /// Everything written so far.
    var text: String { state.withLock { String(decoding: $0.written, as: UTF8.self) } }

    /// Returns once what was written contains `marker` (a gate, not a timeout).
    func waitFor(_ marker: String) async {
        await withCheckedContinuation { continuation in
            let found = state.withLock { state -> Bool in
                if String(decoding: state.written, as: UTF8.self).contains(marker) { return true }
                state.waiters.append((marker, continuation))
                return false
            }
            if found { continuation.resume() }
        }
    }
}
