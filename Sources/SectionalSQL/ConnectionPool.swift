import Dispatch
import Synchronization

/// A few dedicated threads, each with its own connection, that run
/// database work for async callers; and, for an engine whose reads never
/// wait (SQLite in WAL mode), a read connection for each thread that reads.
///
/// Database calls block. Run on a libmicrohttpd worker they would stall
/// every connection of that thread; run on Dispatch's global queues or in
/// a plain task they would stall Swift's cooperative pool, which on Linux
/// those share. Here a caller's task suspends on a continuation while a
/// pool thread does the work, so loads run concurrently up to the pool's
/// size and server threads never wait.
///
/// A caller cancelled before its work starts is answered at once and the
/// work skipped; cancelled while it runs, the caller is answered at once
/// and the statement interrupted (`sqlite3_interrupt`, `PQcancel`), which
/// leaves the connection ready for the next caller. A read on the caller's
/// own thread (`read(_:)`) stops instead as soon as its connection next
/// checks, within a few thousand steps of SQLite's machine.
public final class ConnectionPool: Sendable {
    /// How many connections, and so how many statements at once.
    public let size: Int
    /// The engine of its connections.
    public let dialect: SQLDialect
    private let queue = JobQueue<PoolJob>()
    private let busy = Atomic<Int>(0)
    private let jobsStarted = Atomic<Int>(0)
    private let readsAsked = Atomic<Int>(0)
    private let nanosecondsWaited = Atomic<Int>(0)
    private let threadsRunning = DispatchGroup()
    private let callerReaders: CallerReaders?
    private let pipeline: (any StatementPipeline)?

    /// Opens `size` connections, each on its own new thread, with `open`.
    /// - Parameters:
    ///   - size: how many connections, and so how many threads, run the pool's work.
    ///   - dialect: the engine of the connections.
    ///   - readers: opens a read connection for a thread that calls
    ///     `read(_:)` or `query(_:_:)`, which then read on that thread; `nil`
    ///     sends reads elsewhere (an engine whose reads may wait).
    ///   - pipeline: where `query(_:_:)` sends its statement when there are
    ///     no readers (PostgreSQL's pipeline mode); closed with the pool.
    ///   - open: opens one of the pool's own connections, on its thread.
    /// - Throws: the first connection's error when any cannot open; no thread is left behind.
    public init(
        size: Int, dialect: SQLDialect, readers: (@Sendable () throws(SQLError) -> any SQLConnection)? = nil,
        pipeline: (any StatementPipeline)? = nil, open: @escaping @Sendable () throws(SQLError) -> any SQLConnection
    ) throws(SQLError) {
        precondition(size > 0, "a pool needs at least one connection")
        self.size = size
        self.dialect = dialect
        callerReaders = readers.map(CallerReaders.init)
        self.pipeline = pipeline
        let failures = Mutex<[SQLError]>([])
        let opened = DispatchSemaphore(value: 0)
        // One at a time: the first connection to a new SQLite file sets it to
        // WAL, which fails with BUSY while another connection opens it.
        for _ in 0..<size {
            threadsRunning.enter()
            DedicatedThread.start { [self] in
                defer { threadsRunning.leave() }
                let connection: any SQLConnection
                do throws(SQLError) {
                    connection = try open()
                } catch {
                    failures.withLock { $0.append(error) }
                    opened.signal()
                    return
                }
                opened.signal()
                serve(connection)
            }
            opened.wait()
        }
        if let failure = failures.withLock({ $0.first }) {
            close()
            throw failure
        }
    }

    /// Opens a pool as `init(size:dialect:open:)` does, from async code:
    /// the wait for the connections happens on a thread of its own, never on
    /// one of the few threads every task runs on (a slow server would stall them all).
    public static func opening(
        size: Int, dialect: SQLDialect, readers: (@Sendable () throws(SQLError) -> any SQLConnection)? = nil,
        pipeline: (@Sendable () throws(SQLError) -> any StatementPipeline)? = nil,
        open: @escaping @Sendable () throws(SQLError) -> any SQLConnection
    ) async throws(SQLError) -> ConnectionPool {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<ConnectionPool, SQLError>, Never>) in
            DedicatedThread.start {
                do throws(SQLError) {
                    let pipeline = try pipeline?()
                    do throws(SQLError) {
                        let pool = try ConnectionPool(size: size, dialect: dialect, readers: readers, pipeline: pipeline, open: open)
                        continuation.resume(returning: .success(pool))
                    } catch {
                        pipeline?.close()
                        throw error
                    }
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// Runs `body` on a pool thread with that thread's connection.
    /// - Throws: what `body` throws; `CancellationError` when the calling task is cancelled first.
    public func run<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        let answer = Answer<T>()
        let job = PoolJob(
            work: { connection in answer.resume(with: Result { try body(connection) }) },
            abandon: { error in answer.resume(with: .failure(error)) })
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                answer.wait(with: continuation)
                enqueue(job)
            }
        } onCancel: {
            job.cancel()
        }
    }

    /// Runs `body`, which only reads, where it is cheapest: on the calling
    /// thread with that thread's read connection when the pool has readers
    /// (no hop, no wake-up: the caller's task does not suspend), else as
    /// `run(_:)` does. Cancelling the calling task, from any thread, stops
    /// the statement running then: the connection checks for it as it steps.
    /// - Throws: what `body` throws; `CancellationError` when the calling task is cancelled first.
    public func read<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        readsAsked.add(1, ordering: .relaxed)
        guard let callerReaders else { return try await run(body) }
        return try Self.readHere(with: callerReaders, body)
    }

    /// Whether reads run on the calling thread (SQLite's readers): they
    /// never wait, and a load made of them may run in the request's task.
    public var readsOnCallingThread: Bool { callerReaders != nil }

    /// What stops, from any thread, the read the calling thread is running
    /// on its own connection, of any pool (`LoadOptions.stopsReadsHere`).
    public static func stopperOfThisThread() -> @Sendable () -> Void { CallerReaders.stopperOfThisThread() }

    /// Runs `body` on the calling thread with that thread's read connection.
    private static func readHere<T>(with readers: CallerReaders, _ body: (any SQLConnection) throws -> T) throws -> T {
        try Task.checkCancellation()
        let slot = try readers.slotOfThisThread()
        slot.interrupter.reset()
        StatementBurst.shareRead(of: slot)
        return try slot.use(body)
    }

    /// Runs one statement that only reads, and returns its rows: on the
    /// calling thread with its read connection when the pool has readers
    /// (SQLite), through the pipeline when it has one (PostgreSQL: the
    /// statement goes out beside other callers', in one write, with no pool
    /// thread woken), else on a pool thread. Several statements that must
    /// see one snapshot go in one `read(_:)` instead.
    /// - Throws: the statement's `SQLError`; `CancellationError` when the calling task is cancelled first.
    public func query(_ sql: String, _ parameters: [SQLValue] = []) async throws -> [SQLRow] {
        readsAsked.add(1, ordering: .relaxed)
        if let callerReaders { return try Self.readHere(with: callerReaders) { connection in try connection.query(sql, parameters) } }
        if let pipeline { return try await pipeline.rows(sql, parameters) }
        return try await run { connection in try connection.query(sql, parameters) }
    }

    /// Runs `body` in one write transaction on a pool thread.
    public func write<T: Sendable>(_ body: @escaping @Sendable (any SQLConnection) throws -> T) async throws -> T {
        StatementBurst.endReadsOnThisThread()
        return try await run { connection in try connection.transaction { try body(connection) } }
    }

    /// What the pool is doing, for metrics.
    public struct Statistics: Sendable {
        /// Connections, busy or not.
        public var size: Int
        /// Connections running a caller's work now.
        public var inUse: Int
        /// Work started on the pool's threads since it opened.
        public var jobsStarted: Int
        /// How long that work waited for a connection, in all.
        public var secondsWaited: Double
        /// Reads asked for since the pool opened, on its threads or the caller's.
        public var reads: Int
    }

    /// The pool now.
    public var statistics: Statistics {
        Statistics(
            size: size, inUse: busy.load(ordering: .relaxed), jobsStarted: jobsStarted.load(ordering: .relaxed),
            secondsWaited: Double(nanosecondsWaited.load(ordering: .relaxed)) / 1e9, reads: readsAsked.load(ordering: .relaxed))
    }

    /// Stops the threads once the work queued so far is done, closing
    /// their connections; waits for them.
    public func close() {
        guard queue.close() else { return }
        callerReaders?.close()
        pipeline?.close()
        threadsRunning.wait()
    }

    private func enqueue(_ job: PoolJob) {
        if !queue.add(job) { job.fail(.poolClosed) }
    }

    /// A pool thread's life: take the next job, run it, until closed.
    private func serve(_ connection: any SQLConnection) {
        let interrupter = connection.interrupter
        while let job = queue.next() {
            busy.add(1, ordering: .relaxed)
            if let waited = job.run(on: connection, interrupter: interrupter) {
                jobsStarted.add(1, ordering: .relaxed)
                nanosecondsWaited.add(waited, ordering: .relaxed)
            }
            busy.subtract(1, ordering: .relaxed)
        }
    }
}

/// Runs single read statements of many callers over a few connections
/// without a thread for each statement: PostgreSQL's pipeline mode.
public protocol StatementPipeline: Sendable {
    /// Runs one statement that only reads, and returns its rows. A caller
    /// cancelled is answered at once, and its statement stopped on the server.
    func rows(_ sql: String, _ parameters: [SQLValue]) async throws -> [SQLRow]

    /// Closes the connections; statements still waiting fail, and later ones too.
    func close()
}

/// One caller's work: queued, running (interruptible) or done.
private final class PoolJob: Sendable {
    private enum State {
        case queued, running(SQLInterrupter), cancelled, done
    }

    private let state = Mutex(State.queued)
    private let queuedAt = DispatchTime.now().uptimeNanoseconds
    private let work: @Sendable (any SQLConnection) -> Void
    /// Answers the caller without the work: cancelled, or the pool closed.
    private let abandon: @Sendable (any Error) -> Void

    init(work: @escaping @Sendable (any SQLConnection) -> Void, abandon: @escaping @Sendable (any Error) -> Void) {
        self.work = work
        self.abandon = abandon
    }

    /// Runs the work unless it was cancelled. - Returns: how long it waited, in nanoseconds; `nil` when skipped.
    func run(on connection: any SQLConnection, interrupter: SQLInterrupter) -> Int? {
        let started = state.withLock { state in
            guard case .queued = state else { return false }
            // Under the job's lock, so that a cancel either finds it queued or interrupts this job.
            interrupter.reset()
            state = .running(interrupter)
            return true
        }
        guard started else { return nil }
        let waited = Int(DispatchTime.now().uptimeNanoseconds - queuedAt)
        work(connection)
        // Done before the next job starts, so a late cancel cannot interrupt that one.
        state.withLock { $0 = .done }
        return waited
    }

    func cancel() {
        state.withLock { state in
            switch state {
            case .queued:
                state = .cancelled
                abandon(CancellationError())
            case .running(let interrupter):
                // The caller first: the interrupted statement's own error may come back before `interrupt()` returns.
                abandon(CancellationError())
                interrupter.interrupt()
            case .cancelled, .done:
                return
            }
        }
    }

    func fail(_ error: SQLError) {
        state.withLock { $0 = .done }
        abandon(error)
    }
}
