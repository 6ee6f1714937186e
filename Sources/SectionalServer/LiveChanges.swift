import Synchronization

/// One live stream's queue of changes, for its one reader: the newest few
/// are kept, older ones dropped, so a slow client gets the latest state,
/// never a backlog. Ended by `finish()` (what is queued is still read) or by
/// cancelling the reading task (nothing more is read).
///
/// Read with `for await` by a task that waits for each change, or served
/// (`serve`) to a reader that has no task while none is queued.
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
        /// The reader `serve` was given, and what runs once it has had the last change.
        var served: Served?
        /// Whether a task is handing the queued changes to `served` now.
        var isServing = false
        /// That task, once started: cancelled by `cancel()`.
        var server: Task<Void, Never>?

        /// The next queued change, `.some(nil)` at the end, `nil` when the reader must wait.
        mutating func takeReady() -> LiveHub.Change?? {
            if !queued.isEmpty { return queued.removeFirst() }
            return finished ? .some(nil) : nil
        }

        /// The served reader's end, once, when the queue has ended and no task hands it changes.
        mutating func takeEnd() -> (@Sendable () -> Void)? {
            guard finished, !isServing, queued.isEmpty, let atEnd = served?.atEnd else { return nil }
            served = nil
            return atEnd
        }
    }

    /// A reader without a task of its own (`serve`).
    private struct Served {
        let quickly: @Sendable (LiveHub.Change) -> Bool?
        let handle: @Sendable (LiveHub.Change) async -> Bool
        let atEnd: @Sendable () -> Void
    }

    private let state = Mutex(State())
    private let limit: Int

    /// A queue keeping the newest `limit` changes.
    init(keepingNewest limit: Int) {
        self.limit = limit
    }

    /// Queues `change`, or hands it to the waiting reader; ignored once
    /// finished. A served reader with nothing queued gets it here, on the
    /// caller's thread, if it can handle it without waiting.
    func yield(_ change: LiveHub.Change) {
        let (reader, quickly) = state.withLock { state -> (UnsafeContinuation<LiveHub.Change?, Never>?, (@Sendable (LiveHub.Change) -> Bool?)?) in
            guard !state.finished else { return (nil, nil) }
            if let reader = state.reader {
                state.reader = nil
                return (reader, nil)
            }
            if let served = state.served, !state.isServing, state.queued.isEmpty {
                state.isServing = true
                return (nil, served.quickly)
            }
            if state.queued.count == limit { state.queued.removeFirst() }
            state.queued.append(change)
            startServing(&state)
            return (nil, nil)
        }
        reader?.resume(returning: change)
        if let quickly { serve(change, quickly) }
    }

    /// Hands `change` to the served reader on this thread; in a task if it must wait.
    private func serve(_ change: LiveHub.Change, _ quickly: @Sendable (LiveHub.Change) -> Bool?) {
        let handled = quickly(change)
        if handled == false { end(droppingQueued: true) }
        let ended = state.withLock { state -> (@Sendable () -> Void)? in
            if handled == nil, !state.finished { state.queued.insert(change, at: 0) }
            state.isServing = false
            startServing(&state)
            return state.takeEnd()
        }
        ended?()
    }

    /// Hands each change to the reader, one at a time and in order, with no
    /// task of its own while none is queued: an open page's event stream
    /// waits for changes nearly all its life, and a task waiting kept 2 kB
    /// of it (the task and its allocator's blocks). `quickly` gets the
    /// change first, on the thread that yields it, and returns `nil` when it
    /// must wait for something; `handle` then gets it in a task that runs
    /// while changes are queued. Either returns `false` to end the queue;
    /// `atEnd` runs once the last change is handled, or at once if the
    /// queue has ended with none queued. Instead of `for await`, once.
    func serve(
        quickly: @escaping @Sendable (LiveHub.Change) -> Bool?, _ handle: @escaping @Sendable (LiveHub.Change) async -> Bool,
        atEnd: @escaping @Sendable () -> Void
    ) {
        let ended = state.withLock { state -> (@Sendable () -> Void)? in
            state.served = Served(quickly: quickly, handle: handle, atEnd: atEnd)
            startServing(&state)
            return state.takeEnd()
        }
        ended?()
    }

    /// Ends the queue, dropping what is queued, and cancels the change being
    /// handled: its reader is gone.
    func cancel() {
        let server = state.withLock { $0.server }
        end(droppingQueued: true)
        server?.cancel()
    }

    /// Starts the task that hands the queued changes to the served reader,
    /// unless one runs or there is nothing to hand. Under the lock: `cancel()` finds the task it started.
    private func startServing(_ state: inout State) {
        guard state.served != nil, !state.isServing, !state.queued.isEmpty else { return }
        state.isServing = true
        // Detached: a change is handed on by whichever request published it, whose id is not the stream's.
        state.server = Task.detached { await self.serveQueued() }
    }

    /// Hands the queued changes to the reader until none is left.
    private func serveQueued() async {
        while true {
            let (next, ended) = state.withLock { state -> ((LiveHub.Change, @Sendable (LiveHub.Change) async -> Bool)?, (@Sendable () -> Void)?) in
                guard !state.queued.isEmpty, let served = state.served else {
                    state.isServing = false
                    state.server = nil
                    return (nil, state.takeEnd())
                }
                return ((state.queued.removeFirst(), served.handle), nil)
            }
            guard let (change, handle) = next else {
                ended?()
                return
            }
            if await !handle(change) { end(droppingQueued: true) }
        }
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
        let (reader, terminated, ended) = state.withLock { state in
            if droppingQueued { state.queued = [] }
            guard !state.finished else {
                return (nil, nil, state.takeEnd()) as (UnsafeContinuation<LiveHub.Change?, Never>?, (@Sendable () -> Void)?, (@Sendable () -> Void)?)
            }
            state.finished = true
            defer { (state.reader, state.onTermination) = (nil, nil) }
            return (state.reader, state.onTermination, state.takeEnd())
        }
        reader?.resume(returning: nil)
        terminated?()
        ended?()
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
