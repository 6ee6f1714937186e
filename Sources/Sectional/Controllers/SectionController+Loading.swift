import Synchronization

extension SectionController {
    /// Runs the pending data loads of this controller and all its descendants
    /// concurrently, then hands each result to its controller. A load that
    /// throws, or misses its deadline, marks only its own controller failed.
    ///
    /// A delivered model may add children (a container built from its data):
    /// their loads run next, so no descendant is left unloaded.
    ///
    /// The controllers stay in the calling task: only the `Sendable`
    /// operations and their results cross into the task group. Each load
    /// starts on this thread and leaves it only if it suspends, so loads that
    /// never wait (SQLite reads) cost no thread hop. A load that misses its
    /// deadline has its task cancelled, even while it holds this thread;
    /// loads must honour cancellation (as `Task.sleep`, URLSession and the
    /// database pools do) for the page to finish on time.
    ///
    /// When none of a round's loads waits (`SectionLoad.Placement`), they
    /// run one after another in the calling task, with no task of their own;
    /// a deadline then stops the read running past it where it runs
    /// (`LoadOptions.stopsReadsHere`), and the calling task goes on.
    ///
    /// - Parameters:
    ///   - options: the default deadline, the clock it runs on, and a wrapper for each load.
    ///   - onProgress: called in this task once the loads have started and
    ///     after each one ends, so a caller can send what is ready; when every
    ///     load finished without waiting, once, after all of them.
    @discardableResult
    public func loadTree(_ options: LoadOptions = LoadOptions(), onProgress: () -> Void = {}) async -> LoadReport {
        var report = LoadReport()
        var rounds = LoadRounds()
        while true {
            let wave = await loadPendingLoads(rounds.next(in: self), options, clock: options.clock, onProgress: onProgress)
            guard !wave.isEmpty else { return report }
            report.add(wave)
        }
    }

    /// `loadTree(_:onProgress:)` with the options spelled out.
    @discardableResult
    public func loadTree(
        timeout: Duration, clock: any Clock<Duration> = DeadlineClock(), intercept: LoadInterceptor? = nil,
        onProgress: () -> Void = {}
    ) async -> LoadReport {
        await loadTree(LoadOptions(timeout: timeout, clock: clock, intercept: intercept), onProgress: onProgress)
    }

    /// The outcomes of every load, in order, in one allocation (`compactMap` grows its array as it goes).
    private static func delivered(_ outcomes: [LoadReport.Outcome?]) -> [LoadReport.Outcome] {
        var delivered: [LoadReport.Outcome] = []
        delivered.reserveCapacity(outcomes.count)
        for case let outcome? in outcomes { delivered.append(outcome) }
        return delivered
    }

    /// Runs the loads pending now (`pending`, in tree order), concurrently, and delivers their results.
    private func loadPendingLoads<C: Clock<Duration>>(
        _ pending: [PendingLoad], _ options: LoadOptions, clock: C, onProgress: () -> Void
    ) async -> [LoadReport.Outcome] {
        guard !pending.isEmpty else {
            onProgress()
            return []
        }
        var outcomes = [LoadReport.Outcome?](filled: pending.count, with: nil)
        let deadlines = pending.map { $0.controller.loadTimeout ?? options.timeout }
        let cutter = LoadCutter(deadlines: deadlines)
        let operations = pending.map { entry in options.intercept?(entry.controller.id, entry.load.operation) ?? entry.load.operation }
        let start = clock.now
        // Set before any load starts: a load that reads on this thread holds
        // it until it returns, so only another thread can stop it in time.
        let watch = Self.watchDeadlines(cutter, startedAt: start, on: clock)
        defer { watch.stop() }

        if let stop = Self.stopInRequestTask(for: pending, options) {
            for index in pending.indices {
                outcomes[index] = await Self.load(index, pending, operations[index], deadlines, cutter, stop, options, clock: clock, round: start)
            }
            onProgress()
            return Self.delivered(outcomes)
        }
        let claims = LoadClaims(count: pending.count)
        await withTaskGroup(of: [FinishedLoad].self) { group in
            var runner = 0
            // At most a runner a load: each takes at least one, whenever it starts.
            func startRunners() {
                while claims.hasUnclaimed && runner < pending.count {
                    claims.starting(runner)
                    group.addImmediateTask { [runner] in
                        var late: [FinishedLoad] = []
                        var first = true
                        while let index = claims.claim(by: runner, first: first) {
                            first = false
                            let started = clock.now
                            cutter.begin(index, at: start.duration(to: started))
                            let result: Result<any Sendable, any Error>
                            do { result = .success(try await operations[index]()) } catch { result = .failure(error) }
                            let cut = cutter.end(index)
                            let finished = FinishedLoad(index: index, result: result, duration: started.duration(to: clock.now), cut: cut)
                            if !claims.keepAtOnce(finished, by: runner) { late.append(finished) }
                            // Its task is cancelled now: the loads left need a runner of their own.
                            if cut { break }
                        }
                        return late
                    }
                    claims.returned()
                    runner += 1
                }
            }
            options.startingTogether?(startRunners)
            // Without a hook, or one that did not start them: they start here (none twice: each is claimed once).
            startRunners()
            let atOnce = claims.takeAtOnce()
            // When every load finished at once, progress is reported once, after
            // all are delivered: a page renders whole instead of card by card.
            let someWait = atOnce.count < pending.count
            if someWait { onProgress() }
            for finished in atOnce {
                outcomes[finished.index] = Self.outcome(of: finished, pending, deadlines, diagnosing: options.diagnosesFailures)
                if someWait { onProgress() }
            }
            for await batch in group {
                for finished in batch {
                    outcomes[finished.index] = Self.outcome(of: finished, pending, deadlines, diagnosing: options.diagnosesFailures)
                    onProgress()
                }
            }
            if !someWait { onProgress() }
        }
        return Self.delivered(outcomes)
    }

    /// What stops a load of `pending` run in the request's own task, when
    /// none of them waits and none is wrapped (a wrapper may wait); `nil`
    /// when they need tasks of their own.
    private static func stopInRequestTask(for pending: [PendingLoad], _ options: LoadOptions) -> LoadCutter.RunningLoad? {
        guard options.intercept == nil else { return nil }
        var readsHere = false
        for entry in pending {
            switch entry.load.placement {
            case .mayWait: return nil
            case .readsHere: readsHere = true
            case .synchronous: break
            }
        }
        guard readsHere else { return nothingToStop }
        // Reads on this thread are stopped through its data layer, or the loads get tasks of their own.
        return options.stopsReadsHere.map { LoadCutter.RunningLoad(stop: $0()) }
    }

    /// What a cut of synchronous loads calls: nothing stops them early.
    private static let nothingToStop = LoadCutter.RunningLoad(stop: {})

    /// Runs load `index` in the calling task, which a cut never cancels; its outcome.
    private static func load<C: Clock<Duration>>(
        _ index: Int, _ pending: [PendingLoad], _ operation: @Sendable () async throws -> any Sendable, _ deadlines: [Duration],
        _ cutter: LoadCutter, _ stop: LoadCutter.RunningLoad, _ options: LoadOptions, clock: C, round start: C.Instant
    ) async -> LoadReport.Outcome {
        let started = clock.now
        cutter.begin(index, at: start.duration(to: started), stoppedBy: stop)
        let result: Result<any Sendable, any Error>
        do { result = .success(try await operation()) } catch { result = .failure(error) }
        let cut = cutter.end(index)
        let finished = FinishedLoad(index: index, result: result, duration: started.duration(to: clock.now), cut: cut)
        return outcome(of: finished, pending, deadlines, diagnosing: options.diagnosesFailures)
    }

    /// A finished load's outcome: its model delivered, or its controller failed.
    private static func outcome(
        of finished: FinishedLoad, _ pending: [PendingLoad], _ deadlines: [Duration], diagnosing: Bool
    ) -> LoadReport.Outcome {
        let entry = pending[finished.index]
        let outcome =
            finished.cut
            ? timedOut(entry.controller, deadlines[finished.index]) : deliver(finished.result, to: entry, duration: finished.duration)
        if diagnosing, case .failed(let error) = entry.controller.loadState {
            let (seconds, attoseconds) = outcome.duration.components
            let tenthsOfMilliseconds = seconds * 10_000 + attoseconds / 100_000_000_000_000
            let time = "\(tenthsOfMilliseconds / 10).\(tenthsOfMilliseconds % 10) ms"
            entry.controller.failureDiagnosis =
                "\(String(reflecting: type(of: entry.controller))) failed after \(time): \(String(reflecting: error))"
        }
        return outcome
    }

    /// Cuts the round's loads as they pass their deadlines, from another
    /// thread: on `DeadlineClock` the watchdog's (no task, no timer, no
    /// wake-up of this one); on any other clock (a test's) a task asleep on it.
    private static func watchDeadlines<C: Clock<Duration>>(_ cutter: LoadCutter, startedAt start: C.Instant, on clock: C) -> RoundWatch {
        if clock is DeadlineClock, let start = start as? DeadlineClock.Instant {
            LoadWatchdog.shared.register(cutter, startedAt: start)
            return .watchdog(cutter)
        }
        return .task(
            Task {
                var due = cutter.firstDue
                while true {
                    try? await clock.sleep(until: start.advanced(by: due), tolerance: nil)
                    guard !Task.isCancelled, let next = cutter.cutOverdue(at: start.duration(to: clock.now)) else { return }
                    due = next
                }
            })
    }

    /// A load cut at its deadline: its controller fails with `SectionTimedOut`.
    private static func timedOut(_ controller: SectionController, _ deadline: Duration) -> LoadReport.Outcome {
        controller.loadState = .failed(SectionTimedOut(id: controller.id, deadline: deadline))
        return .init(id: controller.id, status: .timedOut, duration: deadline)
    }

    /// Hands a load's model to its controller, or marks it failed; its outcome.
    private static func deliver(
        _ result: Result<any Sendable, any Error>, to entry: PendingLoad, duration: Duration
    ) -> LoadReport.Outcome {
        let status = status(of: entry.controller) { entry.load.deliver(try result.get()) }
        return .init(id: entry.controller.id, status: status, duration: duration)
    }

    /// Runs `delivery`, which hands a model over, then marks the controller
    /// loaded, or failed with what was thrown.
    private static func status(of controller: SectionController, after delivery: () throws -> Void) -> LoadReport.Outcome.Status {
        do {
            try delivery()
            controller.loadState = .loaded
            return .ok
        } catch {
            controller.loadState = .failed(error)
            return .failed(String(describing: error))
        }
    }

    fileprivate func collectPendingLoads(into pending: inout [PendingLoad]) {
        if case .notLoaded = loadState {
            if let load = makeLoad() {
                pending.append(PendingLoad(controller: self, load: load))
            } else {
                loadState = .loaded
            }
        }
        for child in children { child.collectPendingLoads(into: &pending) }
    }

    /// Whether this controller and every descendant have finished loading, one way or another.
    public var isLoadFinished: Bool {
        if case .notLoaded = loadState { return false }
        return children.allSatisfy(\.isLoadFinished)
    }
}

/// A controller with the load it made, waiting to run. A struct, not a
/// tuple: an array of tuples is destroyed element by element through the
/// runtime's generic tuple witnesses, slower than a struct's own.
private struct PendingLoad {
    let controller: SectionController
    let load: SectionLoad
}

/// The loads pending in a tree, round after round (a delivered model may
/// add children with loads of their own), in one buffer: a page's sections
/// in one allocation.
private struct LoadRounds {
    private var pending: [PendingLoad] = []

    init() { pending.reserveCapacity(8) }

    /// The loads of `tree` pending now, in tree order; none when it is loaded.
    mutating func next(in tree: SectionController) -> [PendingLoad] {
        pending.removeAll(keepingCapacity: true)
        tree.collectPendingLoads(into: &pending)
        return pending
    }
}

extension LoadReport {
    /// Adds a round's outcomes (the first round's array is kept as it is).
    fileprivate mutating func add(_ wave: [Outcome]) {
        if outcomes.isEmpty { outcomes = wave } else { outcomes += wave }
    }
}

/// What cuts a round's loads at their deadlines, stopped once they have all ended.
private enum RoundWatch {
    case watchdog(LoadCutter)
    case task(Task<Void, Never>)

    func stop() {
        switch self {
        case .watchdog(let cutter): LoadWatchdog.shared.unregister(cutter)
        case .task(let task): task.cancel()
        }
    }
}

/// Wraps a section's load operation, given the section's id.
public typealias LoadInterceptor =
    @Sendable (
        _ id: SectionID, _ operation: @escaping @Sendable () async throws -> any Sendable
    ) -> @Sendable () async throws -> any Sendable

/// The error of a load cut at its deadline.
public struct SectionTimedOut: Error, CustomStringConvertible {
    /// The section whose load was cut.
    public var id: SectionID
    /// The deadline it missed.
    public var deadline: Duration
    public var description: String { "\(id) did not load within \(deadline)" }
}

/// How a tree's loads run: the deadline of a load whose controller sets
/// none, the clock deadlines are measured on (tests pass a manual one), and
/// an optional wrapper around each operation.
public struct LoadOptions: Sendable {
    /// The deadline of a load whose controller sets no `loadTimeout`.
    public var timeout: Duration
    /// The clock deadlines are measured on: `DeadlineClock` in production, a manual one in tests.
    public var clock: any Clock<Duration>
    /// Wraps each operation, by controller id (fault injection, tracing).
    public var intercept: LoadInterceptor?
    /// In development: a failed controller keeps what went wrong (its type,
    /// the load's time, the error) in `failureDiagnosis`, and shows it below
    /// its fallback.
    public var diagnosesFailures: Bool
    /// Runs the start of loads that start together: it calls its argument
    /// once, on the calling thread, and returns. A data layer that hands its
    /// statements to a thread of its own can send them at once when it
    /// returns (`StatementBurst.together` in SectionalSQL); a load's work
    /// before its first wait then holds back the statements of the loads
    /// started before it, so it should be short (a SQLite read is).
    /// `nil`: nothing around.
    public var startingTogether: (@Sendable (_ startLoads: () -> Void) -> Void)?
    /// Called on the thread that runs loads which read where they are
    /// called (`SectionLoad.Placement.readsHere`): gives what stops, from
    /// any thread, the read running on this one (`sqlite3_interrupt`). With
    /// it, such loads run one after another in the request's own task;
    /// `nil`: in tasks of their own, which a deadline cancels.
    public var stopsReadsHere: (@Sendable () -> @Sendable () -> Void)?

    /// Options with a default deadline of `timeout`, measured on `clock`, and no wrapper unless given.
    public init(
        timeout: Duration = .seconds(1), clock: any Clock<Duration> = DeadlineClock(), intercept: LoadInterceptor? = nil,
        diagnosesFailures: Bool = false, startingTogether: (@Sendable (_ startLoads: () -> Void) -> Void)? = nil,
        stopsReadsHere: (@Sendable () -> @Sendable () -> Void)? = nil
    ) {
        self.timeout = timeout
        self.clock = clock
        self.intercept = intercept
        self.diagnosesFailures = diagnosesFailures
        self.startingTogether = startingTogether
        self.stopsReadsHere = stopsReadsHere
    }
}
