import SectionalTesting
import Synchronization
import Testing

@testable import Sectional

/// A section whose load, placed as given, records the task it ran in.
private final class PlacedSection: SectionController {
    private let placement: SectionLoad.Placement
    private let operation: @Sendable () async throws -> String
    private(set) var text = "(not loaded)"

    init(_ id: SectionID, _ placement: SectionLoad.Placement, load operation: @escaping @Sendable () async throws -> String) {
        self.placement = placement
        self.operation = operation
        super.init(id: id, title: id.rawValue)
    }

    override func makeLoad() -> SectionLoad? { SectionLoad(operation, placement: placement) { self.text = $0 } }
}

/// The tasks loads ran in, in order.
private final class TaskLog: Sendable {
    private let tasks = Mutex<[Int]>([])
    func record(_ task: Int) { tasks.withLock { $0.append(task) } }
    var all: [Int] { tasks.withLock { $0 } }
}

/// Where a round's loads run: in the request's own task when none of them
/// waits, with a deadline stopping a read where it runs and never cancelling
/// that task; in tasks of their own otherwise.
@Suite("Loads in the request's task", .timeLimit(.minutes(1)))
struct LoadsInRequestTaskTests {
    /// The task running now, to compare.
    private static func currentTask() -> Int { withUnsafeCurrentTask { $0?.hashValue ?? 0 } }

    /// A page of sections loading with `placement`, each recording its task in `tasks`.
    private func page(_ placement: SectionLoad.Placement, tasks: TaskLog) -> SectionController {
        let page = SectionController(id: "page", title: "Page")
        for id in ["first", "second"] as [SectionID] {
            page.addChild(
                PlacedSection(id, placement) {
                    tasks.record(Self.currentTask())
                    return "\(id) data"
                })
        }
        return page
    }

    private let stopsNothing: @Sendable () -> @Sendable () -> Void = { {} }

    @Test(arguments: [SectionLoad.Placement.readsHere, .synchronous])
    func loadsThatNeverWaitRunInTheCallersTask(_ placement: SectionLoad.Placement) async {
        let tasks = TaskLog()
        let report = await page(placement, tasks: tasks).loadTree(LoadOptions(stopsReadsHere: stopsNothing))
        #expect(report.outcomes.map(\.status) == [LoadReport.Outcome.Status.ok, .ok])
        #expect(tasks.all == [Self.currentTask(), Self.currentTask()])
    }

    @Test func loadsThatMayWaitRunInTasksOfTheirOwn() async {
        let tasks = TaskLog()
        let report = await page(.mayWait, tasks: tasks).loadTree(LoadOptions(stopsReadsHere: stopsNothing))
        #expect(report.outcomes.map(\.status) == [LoadReport.Outcome.Status.ok, .ok])
        #expect(tasks.all.allSatisfy { $0 != Self.currentTask() })
    }

    @Test func readsWithNothingToStopThemRunInTasksOfTheirOwn() async {
        let tasks = TaskLog()
        _ = await page(.readsHere, tasks: tasks).loadTree(LoadOptions())
        #expect(tasks.all.allSatisfy { $0 != Self.currentTask() })
    }

    @Test func aWrappedLoadRunsInATaskOfItsOwn() async {
        let tasks = TaskLog()
        _ = await page(.synchronous, tasks: tasks).loadTree(LoadOptions(intercept: { _, operation in operation }, stopsReadsHere: stopsNothing))
        #expect(tasks.all.allSatisfy { $0 != Self.currentTask() })
    }

    @Test func aReadPastItsDeadlineIsStoppedWhereItRunsAndTheLoadsAfterItStillRun() async {
        let clock = TestClock()
        let stops = Atomic(0)
        let stuckRuns = Atomic(false)
        // A read that runs until it is stopped, as SQLite's does when interrupted.
        let stuck = PlacedSection("stuck", .readsHere) {
            stuckRuns.store(true, ordering: .releasing)
            while stops.load(ordering: .acquiring) == 0 && !Task.isCancelled { await Task.yield() }
            throw CancellationError()
        }
        // Run in the same task: cancelled, that task would show it here.
        let after = PlacedSection("after", .readsHere) { Task.isCancelled ? "its task cancelled" : "after data" }
        let page = SectionController(id: "page", title: "Page")
        page.addChild(stuck)
        page.addChild(after)
        let options = LoadOptions(
            timeout: .milliseconds(100), clock: clock,
            stopsReadsHere: { { stops.add(1, ordering: .releasing) } })
        async let report = page.loadTree(options)
        // Time moves once the read runs: moved before it began, it would give the read its whole deadline from then.
        while !stuckRuns.load(ordering: .acquiring) { await Task.yield() }
        await clock.advance(by: .milliseconds(100), whenSleepersReach: 1)  // the deadline watch
        let outcomes = await report.outcomes

        #expect(outcomes.map(\.status) == [LoadReport.Outcome.Status.timedOut, .ok])
        #expect(stops.load(ordering: .acquiring) == 1, "stopped once, where it ran")
        #expect(after.text == "after data", "the request's task goes on, not cancelled")
    }
}
