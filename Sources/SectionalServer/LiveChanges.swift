import Synchronization

/// One live stream's queue of changes, for its one reader: the newest few
/// are kept, older ones dropped, so a slow client gets the latest state,
/// never a backlog. Ended by `finish()` (what is queued is still read) or by
/// cancelling the reading task (nothing more is read).
///
/// Written for the hub rather than an `AsyncStream`: a change reaches
/// thousands of streams at once, and the standard stream's queue, generic
/// code the compiler does not specialise, looked its types up at run time
/// (10 look-ups a change a stream) and took a larger object per stream.
public final class LiveChanges: AsyncSequence, Sendable {
    public typealias Element = LiveHub.Change

    private struct State {
        var queued: [LiveHub.Change] = []
        /// The waiting reader, resumed once by whoever takes it out under the
        /// lock. Unchecked: a checked one allocates a record per wait, at
        /// every change of every stream, and one kept by each idle stream.
        var reader: UnsafeContinuation<LiveHub.Change?, Never>?
        var finished = false
        var onTermination: (@Sendable () -> Void)?

        /// The next queued change, `.some(nil)` at the end, `nil` when the reader must wait.
        mutating func takeReady() -> LiveHub.Change?? {
            if !queued.isEmpty { return queued.removeFirst() }
            return finished ? .some(nil) : nil
        }
    }

    private let state = Mutex(State())
    private let limit: Int

    /// A queue keeping the newest `limit` changes.
    init(keepingNewest limit: Int) {
        self.limit = limit
    }

    /// Queues `change`, or hands it to the waiting reader; ignored once finished.
    func yield(_ change: LiveHub.Change) {
        let reader = state.withLock { state -> UnsafeContinuation<LiveHub.Change?, Never>? in
            guard !state.finished else { return nil }
            if let reader = state.reader {
                state.reader = nil
                return reader
            }
            if state.queued.count == limit { state.queued.removeFirst() }
            state.queued.append(change)
            return nil
        }
        reader?.resume(returning: change)
    }

    /// No more changes: the reader gets what is queued, then the end.
    func finish() { end(droppingQueued: false) }

    /// Runs `action` once, when the queue ends (at once if it has).
    func onTermination(_ action: @escaping @Sendable () -> Void) {
        let endedAlready = state.withLock { state in
            if !state.finished { state.onTermination = action }
            return state.finished
        }
        if endedAlready { action() }
    }

    private func end(droppingQueued: Bool) {
        let (reader, terminated) = state.withLock { state in
            if droppingQueued { state.queued = [] }
            guard !state.finished else { return (nil, nil) as (UnsafeContinuation<LiveHub.Change?, Never>?, (@Sendable () -> Void)?) }
            state.finished = true
            defer { (state.reader, state.onTermination) = (nil, nil) }
            return (state.reader, state.onTermination)
        }
        reader?.resume(returning: nil)
        terminated?()
    }

    /// The next change; `nil` at the end, or once the reading task is cancelled.
    func next() async -> LiveHub.Change? {
        if Task.isCancelled {
            end(droppingQueued: true)
            return nil
        }
        if let ready = state.withLock({ $0.takeReady() }) { return ready }
        return await withTaskCancellationHandler {
            await withUnsafeContinuation { (reader: UnsafeContinuation<LiveHub.Change?, Never>) in
                let ready = state.withLock { state -> LiveHub.Change?? in
                    guard let ready = state.takeReady() else {
                        state.reader = reader
                        return nil
                    }
                    return ready
                }
                if let ready { reader.resume(returning: ready) }
            }
        } onCancel: {
            end(droppingQueued: true)
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let changes: LiveChanges

        public mutating func next() async -> LiveHub.Change? { await changes.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(changes: self) }
}
