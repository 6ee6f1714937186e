import CLibPQ
import Dispatch
import SectionalSQL
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Read statements of many callers over a few PostgreSQL connections in
/// libpq's pipeline mode, all driven by one thread.
///
/// A caller hands its statement over and suspends. The pipeline's thread
/// sends every statement handed over since it last looked, in one write
/// per connection, and reads the answers as they come, many in one read,
/// resuming each caller. So a page's sections, and the pages served at the
/// same time, share round trips, and no thread is woken per statement while
/// the pipeline's thread is busy. A statement goes to the connection with
/// the fewest in flight, so statements that truly wait still run side by
/// side while there are idle connections.
///
/// A caller cancelled is answered at once; its statement is cancelled on
/// the server once it runs there.
public final class PostgresPipeline: StatementPipeline, BurstPipeline {
    /// Statements handed over and not yet taken by the pipeline's thread.
    private let handedOver = Mutex<(statements: [PipelinedStatement], closed: Bool)>(([], false))
    /// Whether the pipeline's thread is about to wait, or waits: a caller then wakes it.
    private let threadWaits = Atomic<Bool>(false)
    /// Set when a caller stops waiting, for the pipeline's thread to look.
    private let abandonments = Atomic<Bool>(false)
    private let wake: WakeSignal
    private let threadEnded = DispatchSemaphore(value: 0)
    /// Statements given to a connection so far, resends included: what a
    /// test waits for before acting on a statement the server holds.
    let statementsSent = Atomic<Int>(0)
    /// Hand-overs so far, each of one or more statements: what a test counts a burst by.
    let handOvers = Atomic<Int>(0)

    /// Opens `connections` connections to `url` and starts the thread that drives them.
    /// - Throws: `SQLError` when a connection cannot be made; none is left open.
    public init(url: String, connections: Int) throws(SQLError) {
        precondition(connections > 0, "a pipeline needs at least one connection")
        wake = try WakeSignal()
        let opened = Mutex<Result<Void, SQLError>?>(nil)
        let started = DispatchSemaphore(value: 0)
        DedicatedThread.start { [self] in
            defer { threadEnded.signal() }
            let lanes: [PipelineLane]
            do throws(SQLError) {
                lanes = try PipelineLane.open(connections, to: url, wake: wake.signal)
            } catch {
                opened.withLock { $0 = .failure(error) }
                started.signal()
                return
            }
            opened.withLock { $0 = .success(()) }
            started.signal()
            drive(lanes)
        }
        started.wait()
        try opened.withLock { $0 }?.get()
    }

    public func rows(_ sql: String, _ parameters: [SQLValue]) async throws -> [SQLRow] {
        try Task.checkCancellation()
        try sectional_libpq.refuseNUL(in: parameters)
        let statement = PipelinedStatement(sql: sql, parameters: parameters)
        return try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                statement.answer.wait(with: continuation)
                handOver(statement)
            }
        } onCancel: {
            statement.abandon()
            abandonments.store(true, ordering: .sequentiallyConsistent)
            wakeIfWaiting()
        }
    }

    public func close() {
        let isFirst = handedOver.withLock { state in
            defer { state.closed = true }
            return !state.closed
        }
        guard isFirst else { return }
        wake.signal()
        threadEnded.wait()
    }

    private func handOver(_ statement: PipelinedStatement) {
        if StatementBurst.keep(statement, for: self) { return }
        handOver(CollectionOfOne(statement))
    }

    package func handOver(kept statements: [AnyObject]) {
        // Only this pipeline keeps statements for itself, and only its own.
        handOver(statements.lazy.map { $0 as! PipelinedStatement })
    }

    private func handOver(_ statements: some Collection<PipelinedStatement>) {
        let accepted = handedOver.withLock { state in
            guard !state.closed else { return false }
            state.statements.append(contentsOf: statements)
            return true
        }
        guard accepted else { return statements.forEach { $0.fail(SQLError.poolClosed) } }
        handOvers.add(1, ordering: .relaxed)
        wakeIfWaiting()
    }

    private func wakeIfWaiting() {
        if threadWaits.exchange(false, ordering: .sequentiallyConsistent) { wake.signal() }
    }

    /// The pipeline's thread: sends what was handed over, waits for answers
    /// (or a wake-up), answers their callers; until closed.
    private func drive(_ lanes: [PipelineLane]) {
        var descriptors: [pollfd] = []
        var polled: [PipelineLane] = []
        var abandonedOwed = false
        while let statements = takeHandedOver() {
            lanes.forEach { $0.adoptReconnection() }
            send(statements, over: lanes)
            if abandonments.exchange(false, ordering: .sequentiallyConsistent) || abandonedOwed {
                abandonedOwed = lanes.map { $0.cancelAbandonedStatement() }.contains(true)
            }
            // About to wait: a caller handing over or giving up from now on wakes this thread.
            threadWaits.store(true, ordering: .sequentiallyConsistent)
            guard handedOver.withLock({ $0.statements.isEmpty && !$0.closed }), !abandonments.load(ordering: .sequentiallyConsistent) else {
                threadWaits.store(false, ordering: .relaxed)
                continue
            }
            descriptors.removeAll(keepingCapacity: true)
            polled.removeAll(keepingCapacity: true)
            descriptors.append(pollfd(fd: wake.descriptor, events: Int16(POLLIN), revents: 0))
            for lane in lanes {
                guard let socket = lane.socket else { continue }
                descriptors.append(pollfd(fd: socket, events: Int16(lane.waitsToFlush ? POLLIN | POLLOUT : POLLIN), revents: 0))
                polled.append(lane)
            }
            // An abandoned statement is cancelled again until it ends: a cancel that reaches the server before the statement starts is lost.
            _ = poll(&descriptors, nfds_t(descriptors.count), abandonedOwed ? 50 : -1)
            threadWaits.store(false, ordering: .relaxed)
            if descriptors[0].revents != 0 { wake.drain() }
            for (lane, descriptor) in zip(polled, descriptors.dropFirst()) where descriptor.revents != 0 {
                answer(lane.readAnswers(), over: lanes)
            }
        }
        lanes.forEach { $0.close() }
    }

    /// What was handed over since the last look; `nil` once closed, when
    /// whatever is left is failed.
    private func takeHandedOver() -> [PipelinedStatement]? {
        let (statements, closed) = handedOver.withLock { state in
            defer { state.statements.removeAll(keepingCapacity: true) }
            return (state.statements, state.closed)
        }
        guard closed else { return statements }
        for statement in statements { statement.fail(SQLError.poolClosed) }
        return nil
    }

    /// Sends each statement on the connection with the fewest in flight, then
    /// writes each connection's new statements at once.
    private func send(_ statements: [PipelinedStatement], over lanes: [PipelineLane]) {
        guard !statements.isEmpty else { return }
        for statement in statements where !statement.abandoned {
            var chosen: PipelineLane?
            for lane in lanes where lane.socket != nil && lane.inFlight < chosen?.inFlight ?? .max { chosen = lane }
            guard let chosen else {
                statement.fail(PipelineLane.notConnected)
                continue
            }
            chosen.add(statement)
            statementsSent.add(1, ordering: .releasing)
        }
        lanes.forEach { $0.sendAdded() }
    }

    /// How many times a statement is sent again at most.
    private static let resends = 5

    /// Answers the callers of finished statements. A statement stopped for
    /// another's sake is sent again, a few times at most (`resends`): it only reads. That
    /// is one aborted by an earlier statement's failure in the same write, or
    /// one stopped by a cancel meant for the statement before it (the server
    /// had moved on when the cancel came).
    private func answer(_ finished: [PipelineLane.Finished], over lanes: [PipelineLane]) {
        var again: [PipelinedStatement] = []
        for (statement, result, stoppedForAnother) in finished {
            if stoppedForAnother, !statement.abandoned, statement.resends.add(1, ordering: .relaxed).newValue <= Self.resends {
                again.append(statement)
            } else {
                statement.finish(result)
            }
        }
        send(again, over: lanes)
    }
}

/// One caller's statement: what it sends, and how its caller is answered.
final class PipelinedStatement: Sendable {
    let sql: String
    let parameters: [SQLValue]
    let answer = Answer<[SQLRow]>()
    private let isAbandoned = Atomic<Bool>(false)
    /// Times it was sent again after it stopped for another statement's sake.
    let resends = Atomic<Int>(0)

    init(sql: String, parameters: [SQLValue]) {
        self.sql = sql
        self.parameters = parameters
    }

    /// Whether its caller stopped waiting.
    var abandoned: Bool { isAbandoned.load(ordering: .acquiring) }

    func abandon() {
        isAbandoned.store(true, ordering: .releasing)
        answer.resume(with: .failure(CancellationError()))
    }

    func finish(_ result: Result<[SQLRow], SQLError>) { answer.resume(with: result.mapError { $0 }) }

    func fail(_ error: SQLError) { answer.resume(with: .failure(error)) }
}

/// An eventfd the pipeline's thread polls beside the sockets, so that
/// another thread can wake it: a statement handed over or abandoned, a
/// connection made again, the pipeline closing.
final class WakeSignal: Sendable {
    let descriptor: Int32

    init() throws(SQLError) {
        descriptor = eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK))
        guard descriptor >= 0 else { throw SQLError(code: "58000", message: "eventfd failed: errno \(errno)") }
    }

    deinit { Glibc.close(descriptor) }

    func signal() {
        var one: UInt64 = 1
        _ = write(descriptor, &one, 8)
    }

    func drain() {
        var count: UInt64 = 0
        _ = read(descriptor, &count, 8)
    }
}
