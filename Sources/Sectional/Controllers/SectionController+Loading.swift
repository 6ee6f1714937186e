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
    /// operations and their results cross into the task group. Loads whose
    /// data is at hand (`SectionLoad(atHand:)`) are read first, in this task,
    /// with no task of their own. A load that
    /// misses its deadline is cancelled; loads must honour cancellation (as
    /// `Task.sleep` and URLSession do) for the page to finish on time.
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

    /// Loads the tree here and now, with no task, when every load's data is
    /// at hand (`SectionLoad(atHand:)`) and no interceptor is set: the
    /// report, as `loadTree(_:onProgress:)` would give it. `nil` when a load
    /// would wait; then no read of the round that would wait has run (its
    /// loads were made, and controllers with none marked loaded), but a
    /// round before it (a model that added children) may have delivered:
    /// `loadTree` on the same tree loads only what is left (and reports only
    /// that), so a caller that needs the whole report builds the tree anew,
    /// as the server does.
    public func loadTreeAtHand(_ options: LoadOptions = LoadOptions()) -> LoadReport? {
        guard options.intercept == nil else { return nil }
        var report = LoadReport()
        var rounds = LoadRounds()
        while true {
            let pending = rounds.next(in: self)
            guard !pending.isEmpty else { return report }
            guard pending.allSatisfy({ $0.load.atHand != nil }) else { return nil }
            report.add(Self.readAtHand(pending, clock: options.clock))
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

    private enum Event: Sendable {
        case finished(index: Int, Result<any Sendable, any Error>, Duration)
        case deadline(Duration)
    }

    /// Runs the loads pending now (`pending`, in tree order), concurrently, and delivers their results.
    private func loadPendingLoads<C: Clock<Duration>>(
        _ pending: [PendingLoad], _ options: LoadOptions, clock: C, onProgress: () -> Void
    ) async -> [LoadReport.Outcome] {
        guard !pending.isEmpty else {
            onProgress()
            return []
        }

        if options.intercept == nil, pending.allSatisfy({ $0.load.atHand != nil }) {
            let outcomes = Self.readAtHand(pending, clock: clock)
            onProgress()
            return outcomes
        }
        let start = clock.now
        var outcomes = [LoadReport.Outcome?](repeating: nil, count: pending.count)
        // Loads whose data is at hand are read here, at once, with no task;
        // under an interceptor (which may delay any load) they wait like the rest.
        var waiting: [Int] = []
        for index in pending.indices {
            if options.intercept == nil, let read = pending[index].load.atHand {
                let controller = pending[index].controller
                let status = Self.status(of: controller) { try read.readAndDeliver() }
                outcomes[index] = .init(id: controller.id, status: status, duration: start.duration(to: clock.now))
            } else {
                waiting.append(index)
            }
        }
        guard !waiting.isEmpty else {
            onProgress()
            return Self.delivered(outcomes)
        }
        let deadlines = pending.map { $0.controller.loadTimeout ?? options.timeout }
        let operations = waiting.map { index in
            let (controller, load) = (pending[index].controller, pending[index].load)
            return (index, options.intercept?(controller.id, load.operation) ?? load.operation)
        }

        await withTaskGroup(of: Event.self) { group in
            // Immediate child tasks start on this thread and leave it only when
            // they suspend: loads that need no waiting cost no thread hop.
            let finishedAtOnce = FinishedCount()
            for (index, operation) in operations {
                group.addImmediateTask {
                    defer { finishedAtOnce.increment() }
                    do {
                        return .finished(index: index, .success(try await operation()), start.duration(to: clock.now))
                    } catch {
                        return .finished(index: index, .failure(error), start.duration(to: clock.now))
                    }
                }
            }
            // When every load finished at once, progress is reported once, after
            // all are delivered: a page renders whole instead of card by card.
            let someWait = finishedAtOnce.value < operations.count
            // Deadlines matter only for loads still running: one timer per distinct deadline.
            if someWait {
                onProgress()
                for deadline in Set(waiting.map { deadlines[$0] }) {
                    group.addTask {
                        try? await clock.sleep(until: start.advanced(by: deadline), tolerance: nil)
                        return .deadline(deadline)
                    }
                }
            }
            var remaining = operations.count
            while remaining > 0, let event = await group.next() {
                switch event {
                case .finished(let index, let result, let duration):
                    guard outcomes[index] == nil else { continue }  // already past its deadline
                    outcomes[index] = Self.deliver(result, to: pending[index], duration: duration)
                    remaining -= 1
                case .deadline(let deadline):
                    for index in waiting where outcomes[index] == nil && deadlines[index] <= deadline {
                        let controller = pending[index].controller
                        controller.loadState = .failed(SectionTimedOut(id: controller.id, deadline: deadline))
                        outcomes[index] = .init(id: controller.id, status: .timedOut, duration: deadline)
                        remaining -= 1
                    }
                }
                if someWait { onProgress() }
            }
            // Loads past their deadline, and timers not yet due, stop here.
            group.cancelAll()
            if !someWait { onProgress() }
        }
        return Self.delivered(outcomes)
    }

    /// Reads and delivers loads whose data is all at hand (the common case):
    /// their outcomes in order, with no slots for loads that wait.
    private static func readAtHand<C: Clock<Duration>>(_ pending: [PendingLoad], clock: C) -> [LoadReport.Outcome] {
        let start = clock.now
        var outcomes: [LoadReport.Outcome] = []
        outcomes.reserveCapacity(pending.count)
        for entry in pending {
            let status = status(of: entry.controller) { try entry.load.atHand?.readAndDeliver() }
            outcomes.append(.init(id: entry.controller.id, status: status, duration: start.duration(to: clock.now)))
        }
        return outcomes
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

/// Wraps a section's load operation, given the section's id.
public typealias LoadInterceptor =
    @Sendable (
        _ id: SectionID, _ operation: @escaping @Sendable () async throws -> any Sendable
    ) -> @Sendable () async throws -> any Sendable

/// Counts loads that have finished, from whichever thread finished them.
private final class FinishedCount: Sendable {
    private let count = Atomic<Int>(0)
    func increment() { count.add(1, ordering: .relaxed) }
    var value: Int { count.load(ordering: .relaxed) }
}

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

    /// Options with a default deadline of `timeout`, measured on `clock`, and no wrapper unless given.
    public init(timeout: Duration = .seconds(1), clock: any Clock<Duration> = DeadlineClock(), intercept: LoadInterceptor? = nil) {
        self.timeout = timeout
        self.clock = clock
        self.intercept = intercept
    }
}
