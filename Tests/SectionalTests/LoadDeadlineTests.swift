import SectionalTesting
import Synchronization
import Testing

@testable import Sectional

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A section with its own deadline whose load runs `operation`.
final class DeadlineSection: SectionController {
    private let deadline: Duration?
    private let operation: @Sendable () async throws -> String
    private(set) var text = "(not loaded)"

    init(id: SectionID, deadline: Duration? = nil, load operation: @escaping @Sendable () async throws -> String) {
        self.deadline = deadline
        self.operation = operation
        super.init(id: id, title: id.rawValue)
    }

    override var loadTimeout: Duration? { deadline }

    override func makeLoad() -> SectionLoad? { SectionLoad(operation) { self.text = $0 } }

    override func render(into html: inout HTMLWriter) { p(.class("text")) { text }.render(into: &html) }
}

/// Deadlines, interception and progress of `loadTree`, on a test clock
/// that moves only when a test advances it: nothing here sleeps for real,
/// and a deadline that failed to cut a load would hang the test into its
/// time limit.
@Suite("Load deadlines and progress", .timeLimit(.minutes(1)))
struct LoadDeadlineTests {
    /// A load that sleeps on `clock` for minutes and records whether it was cancelled.
    private func hanging(_ id: SectionID, on clock: TestClock, cancelled: LoadCounter, deadline: Duration? = nil) -> DeadlineSection {
        DeadlineSection(id: id, deadline: deadline) {
            do {
                try await clock.sleep(for: .seconds(300))
            } catch {
                cancelled.increment()
                throw error
            }
            return "\(id) finally loaded"
        }
    }

    /// A load that takes `delay` on `clock`.
    private func slow(_ id: SectionID, _ delay: Duration, on clock: TestClock, deadline: Duration? = nil) -> DeadlineSection {
        DeadlineSection(id: id, deadline: deadline) {
            try await clock.sleep(for: delay)
            return "\(id) data"
        }
    }

    @Test func aLoadPastItsDeadlineIsCancelledAndShowsItsFallback() async {
        let clock = TestClock()
        let cancelled = LoadCounter()
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(TextSection(id: "quick") { "quick data" })
        page.addChild(hanging("slow", on: clock, cancelled: cancelled))

        async let loaded = page.loadTree(timeout: .milliseconds(200), clock: clock)
        await clock.advance(by: .milliseconds(200), whenSleepersReach: 2)  // the load and its deadline
        let report = await loaded

        #expect(report.outcome(of: "slow")?.status == .timedOut)
        #expect(report.outcome(of: "quick")?.status == .ok)
        #expect(report.failedIDs == ["slow"])
        #expect(cancelled.value == 1, "the load past its deadline was cancelled")
        if case .failed(let error) = page.descendant(withID: "slow")?.loadState {
            #expect((error as? SectionTimedOut)?.id == "slow")
        } else {
            Issue.record("the slow section is not marked failed")
        }
        let html = page.render()
        let card = slice(of: html, from: #"id="section-slow""#, through: "</section>")
        #expect(card?.contains(#"data-load="timed-out""#) == true)
        #expect(card?.contains("slow could not be loaded") == true)
        #expect(slice(of: html, from: #"id="section-quick""#, through: "</section>")?.contains("quick data") == true)
        #expect(!html.contains("finally loaded"))
    }

    @Test func aSectionDeadlineOverridesThePageDefault() async {
        let clock = TestClock()
        let page = StackPageController(id: "page", title: "Page")
        // Under the page default this load would end, after one second.
        page.addChild(slow("impatient", .seconds(1), on: clock, deadline: .milliseconds(100)))
        page.addChild(slow("patient", .milliseconds(300), on: clock))

        async let loaded = page.loadTree(timeout: .seconds(30), clock: clock)
        // Two loads, and one timer watching their deadlines.
        await clock.advance(by: .milliseconds(100), whenSleepersReach: 3)
        clock.advance(by: .milliseconds(200))
        let report = await loaded

        #expect(report.outcome(of: "impatient")?.status == .timedOut)
        #expect(report.outcome(of: "patient")?.status == .ok, "the page default of 30 s applies to it")
        let html = page.render()
        #expect(html.contains("patient data"))
        #expect(!html.contains("impatient data"))
    }

    @Test func quickLoadsDoNotWaitForTheDeadline() async {
        let clock = TestClock()
        let page = StackPageController(id: "page", title: "Page")
        for id: SectionID in ["a", "b"] { page.addChild(slow(id, .milliseconds(10), on: clock)) }

        async let loaded = page.loadTree(timeout: .seconds(20), clock: clock)
        await clock.advance(by: .milliseconds(10), whenSleepersReach: 3)  // two loads and the deadlines' timer
        let report = await loaded

        #expect(clock.now.offset == .milliseconds(10), "loadTree returned when the loads ended, not at the deadline")
        #expect(report.failedIDs.isEmpty)
        #expect(clock.sleeperCount == 0, "the deadline's timer was cancelled")
    }

    @Test func failedLoadsAreMarkedAsFailedNotTimedOut() async {
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(TextSection.failing("broken", title: "Broken", error: TestLoadError(reason: "no")))
        let report = await page.loadTree(timeout: .seconds(30))
        #expect(report.outcome(of: "broken")?.status == .failed("TestLoadError(no)"))
        #expect(page.render().contains(#"data-load="failed""#))
    }

    @Test func anInterceptorWrapsEachLoadByID() async {
        let seen = IDRecorder()
        let page = StackPageController(id: "page", title: "Page")
        for id: SectionID in ["balances", "alerts", "credit-score"] { page.addChild(TextSection(id: id) { "\(id) data" }) }

        let report = await page.loadTree(
            timeout: .seconds(30),
            intercept: { id, operation in
                seen.record(id)
                guard id == "alerts" else { return operation }
                return { throw TestLoadError(reason: "injected") }
            })

        #expect(seen.recorded.sorted() == ["alerts", "balances", "credit-score"])
        #expect(report.failedIDs == ["alerts"])
        let html = page.render()
        #expect(html.contains("balances data") && html.contains("credit-score data"))
        #expect(!html.contains("alerts data"))
    }

    @Test("Loads that wait all start inside one call of startingTogether, where a data layer sends their statements at once")
    func waitingLoadsStartTogether() async {
        let clock = TestClock()
        // The thread inside startingTogether, while it runs: a load started there began inside it.
        let startingOn = Mutex<pthread_t?>(nil)
        let calls = LoadCounter()
        let startedInside = IDRecorder()
        let page = StackPageController(id: "page", title: "Page")
        for id: SectionID in ["balances", "alerts", "credit-score"] {
            page.addChild(
                DeadlineSection(id: id) {
                    if startingOn.withLock({ $0.map { pthread_equal($0, pthread_self()) != 0 } ?? false }) { startedInside.record(id) }
                    try await clock.sleep(for: .milliseconds(10))
                    return "\(id) data"
                })
        }
        let options = LoadOptions(
            timeout: .seconds(30), clock: clock,
            startingTogether: { startLoads in
                calls.increment()
                startingOn.withLock { $0 = pthread_self() }
                startLoads()
                startingOn.withLock { $0 = nil }
            })

        async let loaded = page.loadTree(options)
        await clock.advance(by: .milliseconds(10), whenSleepersReach: 4)  // three loads and the deadline watch
        let report = await loaded

        #expect(calls.value == 1, "startingTogether was called once")
        #expect(startedInside.recorded.sorted() == ["alerts", "balances", "credit-score"])
        #expect(report.failedIDs.isEmpty)
        #expect(page.render().contains("credit-score data"))
    }

    @Test func progressIsReportedBeforeAndAfterEachLoad() async {
        let clock = TestClock()
        let page = StackPageController(id: "page", title: "Page")
        for (id, milliseconds) in [("a", 10), ("b", 60), ("c", 120)] as [(SectionID, Int)] {
            page.addChild(slow(id, .milliseconds(milliseconds), on: clock))
        }
        var finishedAtEachCall: [Int] = []

        async let loaded: Void = {
            await page.loadTree(
                timeout: .seconds(30), clock: clock,
                onProgress: {
                    finishedAtEachCall.append(page.children.filter(\.isLoadFinished).count)
                })
        }()
        await clock.advance(by: .milliseconds(10), whenSleepersReach: 4)
        await clock.advance(by: .milliseconds(50), whenSleepersReach: 2)  // the hanging load and its deadline
        await clock.advance(by: .milliseconds(60), whenSleepersReach: 2)
        await loaded

        #expect(finishedAtEachCall.first == 0, "called once the loads have started")
        #expect(finishedAtEachCall.last == 3)
        #expect(finishedAtEachCall == finishedAtEachCall.sorted())
        #expect(Set(finishedAtEachCall).isSuperset(of: [0, 1, 2, 3]), "called after each load: \(finishedAtEachCall)")
    }

    @Test func isLoadFinishedCoversTheWholeTree() async {
        let page = StackPageController(id: "page", title: "Page")
        let group = SectionController(id: "group", title: "Group")
        group.addChild(TextSection(id: "inner") { "inner" })
        page.addChild(group)
        page.addChild(TextSection.failing("broken", title: "Broken", error: TestLoadError(reason: "x")))
        #expect(!page.isLoadFinished)

        await page.loadTree(timeout: .seconds(30))
        #expect(page.isLoadFinished, "failed loads are finished too")

        group.setNeedsLoad()
        #expect(!page.isLoadFinished)
        #expect(page.descendant(withID: "broken")?.isLoadFinished == true)
    }

    @Test func theDescriptionSaysHowEachLoadWent() async throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "balances,alerts,credit-score")))
        let cancelled = LoadCounter()
        let page = StackPageController(id: "feed", title: "Feed")
        page.addChild(TextSection(id: "balances") { "ok" })
        page.addChild(TextSection.failing("alerts", title: "Alerts", error: TestLoadError(reason: "x")))
        let clock = TestClock()
        page.addChild(hanging("credit-score", on: clock, cancelled: cancelled, deadline: .milliseconds(50)))
        async let loaded = page.loadTree(timeout: .seconds(30), clock: clock)
        await clock.advance(by: .milliseconds(50), whenSleepersReach: 2)  // the hanging load and its deadline
        let report = await loaded

        let described = PageDescription(plan: plan, address: PageAddress(path: "/feed"), report: report)
        #expect(described.sections.map(\.status) == ["ok", "failed", "timed-out"])
        #expect(PageDescription(plan: plan, address: PageAddress(path: "/feed")).sections.allSatisfy { $0.status == nil })
    }
}
