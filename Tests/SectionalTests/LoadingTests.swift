import Synchronization
import Testing

@testable import Sectional

/// `loadTree()`: loads run concurrently, once, and a failing one affects only
/// its own section.
@Suite("Loading")
struct LoadingTests {
    private func elapsed(_ work: () async -> Void) async -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        await work()
        return clock.now - start
    }

    /// Three loads of 100 ms against one, measured in the same test and
    /// compared as a ratio: run one after another they would take three
    /// times as long. The best of a few rounds is kept, so that a busy
    /// machine's pauses do not decide the outcome.
    /// The task each load ran in, by section id.
    private final class TaskRecorder: Sendable {
        private let tasks = Mutex<[SectionID: Int]>([:])
        func record(_ id: SectionID) { withUnsafeCurrentTask { task in tasks.withLock { $0[id] = task?.hashValue } } }
        var distinctTasks: Int { tasks.withLock { Set($0.values).count } }
        var count: Int { tasks.withLock { $0.count } }
    }

    /// Holds each load that arrives until `expected` have: loads that ran one
    /// after another would wait for ever (the test's time limit ends it).
    private final class Gate: Sendable {
        private let state = Mutex<(arrived: Int, waiting: [CheckedContinuation<Void, Never>])>((0, []))
        let expected: Int

        init(expected: Int) { self.expected = expected }

        func arriveAndWait() async {
            await withCheckedContinuation { continuation in
                let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                    state.arrived += 1
                    state.waiting.append(continuation)
                    guard state.arrived == expected else { return [] }
                    defer { state.waiting = [] }
                    return state.waiting
                }
                for waiter in released { waiter.resume() }
            }
        }
    }

    @Test(.timeLimit(.minutes(1))) func loadsThatNeverWaitShareOneTaskAndLoadsThatWaitGetOneEach() async {
        let quick = TaskRecorder()
        let page = StackPageController(id: "page", title: "Page")
        for id: SectionID in ["a", "b", "c"] {
            page.addChild(
                TextSection(id: id) {
                    quick.record(id)
                    return "\(id) data"
                })
        }
        await page.loadTree(timeout: .seconds(30))
        #expect(quick.count == 3)
        #expect(quick.distinctTasks == 1, "loads that never suspend ran in \(quick.distinctTasks) tasks")

        let waiting = TaskRecorder()
        let gate = Gate(expected: 3)
        let other = StackPageController(id: "page", title: "Page")
        for id: SectionID in ["a", "b", "c"] {
            other.addChild(
                TextSection(id: id) {
                    waiting.record(id)
                    // Each waits until all three have started: one after another, none would.
                    await gate.arriveAndWait()
                    return "\(id) data"
                })
        }
        await other.loadTree(timeout: .seconds(30))
        #expect(waiting.distinctTasks == 3, "loads that wait ran in \(waiting.distinctTasks) tasks")
    }

    @Test func siblingsLoadConcurrently() async throws {
        var single = Duration.seconds(3_600)
        var three = Duration.seconds(3_600)
        for _ in 0..<3 {
            let one = StackPageController(id: "one", title: "One")
            one.addChild(TextSection.sleeping("only", milliseconds: 100))
            single = min(single, await elapsed { await one.loadTree(timeout: .seconds(30)) })

            let page = StackPageController(id: "page", title: "Page")
            for id: SectionID in ["a", "b", "c"] { page.addChild(TextSection.sleeping(id, milliseconds: 100)) }
            var report = LoadReport()
            three = min(three, await elapsed { report = await page.loadTree(timeout: .seconds(30)) })

            #expect(report.outcomes.map(\.id) == ["a", "b", "c"])
            #expect(report.outcomes.allSatisfy { $0.status == .ok && $0.duration >= .milliseconds(100) })
            #expect(page.children.allSatisfy { $0.loadState.isLoaded })
        }
        #expect(single >= .milliseconds(100))
        let ratio = three / single
        // In sequence the ratio is 3; the margin below it is for a two-core machine running the whole suite at once.
        #expect(ratio < 2.5, "three 100 ms loads took \(three), one took \(single): ratio \(ratio)")
    }

    /// Each load waits until all three have started: this finishes only if
    /// they run at the same time.
    @Test func allLoadsAreInFlightTogether() async {
        let started = LoadCounter()
        let page = StackPageController(id: "page", title: "Page")
        for id: SectionID in ["a", "b", "c"] {
            page.addChild(
                TextSection(id: id) {
                    started.increment()
                    let deadline = ContinuousClock.now + .seconds(5)
                    while started.value < 3, ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(2))
                    }
                    return started.value >= 3 ? "met" : "alone"
                })
        }

        let report = await page.loadTree(timeout: .seconds(30))

        #expect(report.failedIDs.isEmpty)
        #expect(page.render().ranges(of: ">met<").count == 3, "every load saw the other two in flight")
    }

    @Test func aFailingLoadRendersItsFallbackWhileSiblingsRender() async {
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(TextSection(id: "balances", title: "Balances") { "balances data" })
        page.addChild(TextSection.failing("alerts", title: "Alerts <beta>", error: TestLoadError(reason: "store down")))
        page.addChild(TextSection(id: "credit-score", title: "Credit score") { "credit data" })

        let report = await page.loadTree(timeout: .seconds(30))

        #expect(report.failedIDs == ["alerts"])
        #expect(report.outcomes.map(\.id) == ["balances", "alerts", "credit-score"])
        #expect(report.outcomes.map(\.status) == [.ok, .failed("TestLoadError(store down)"), .ok])
        #expect(page.descendant(withID: "alerts")?.loadState.isFailed == true)

        let html = page.render()
        let alerts = slice(of: html, from: #"id="section-alerts""#, through: "</section>")
        #expect(alerts?.contains("Alerts &lt;beta&gt; could not be loaded") == true, "\(html)")
        #expect(alerts?.contains(#"class="text""#) == false, "the failed section's content is not rendered")
        #expect(slice(of: html, from: #"id="section-balances""#, through: "</section>")?.contains("balances data") == true)
        #expect(slice(of: html, from: #"id="section-credit-score""#, through: "</section>")?.contains("credit data") == true)
        #expect(occurrences(of: "could not be loaded", in: html) == 1)
    }

    @Test func aLoadRunsOnceUntilSetNeedsLoad() async {
        let counter = LoadCounter()
        let page = StackPageController(id: "page", title: "Page")
        let section = TextSection.counting("counted", in: counter)
        page.addChild(section)

        let first = await page.loadTree(timeout: .seconds(30))
        let second = await page.loadTree(timeout: .seconds(30))

        #expect(counter.value == 1)
        #expect(first.outcomes.map(\.id) == ["counted"])
        #expect(second.outcomes.isEmpty, "nothing was left to load")
        #expect(section.text == "counted run 1")

        page.setNeedsLoad()
        #expect(section.loadState.isNotLoaded, "setNeedsLoad reaches the descendants")
        await page.loadTree(timeout: .seconds(30))

        #expect(counter.value == 2)
        #expect(section.text == "counted run 2")
    }

    @Test func nestedSectionsLoadAndReportInTreeOrder() async {
        let page = StackPageController(id: "page", title: "Page")
        let group = TextSection(id: "group") { "group" }
        group.addChild(TextSection(id: "inner-a") { "a" })
        group.addChild(TextSection.failing("inner-b", title: "Inner B", error: TestLoadError(reason: "x")))
        page.addChild(group)
        page.addChild(TextSection(id: "after") { "after" })
        page.addChild(TextSection(id: "static", text: "no load"))

        let report = await page.loadTree(timeout: .seconds(30))

        #expect(report.outcomes.map(\.id) == ["group", "inner-a", "inner-b", "after"])
        #expect(report.failedIDs == ["inner-b"])
        #expect(page.descendant(withID: "static")?.loadState.isLoaded == true, "nothing to load counts as loaded")
        #expect(page.loadState.isLoaded)
    }

    @Test func childrenMadeFromALoadedModelAreLoadedBeforeRendering() async {
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(ListSection(id: "list", items: ["x", "y"]))
        page.addChild(TextSection(id: "after") { "after data" })

        let report = await page.loadTree(timeout: .seconds(30))

        #expect(Set(report.outcomes.map(\.id)) == ["list", "after", "x", "y"])
        #expect(report.outcomes.count == 4, "each load ran once")
        let list = page.descendant(withID: "list")
        #expect(list?.children.allSatisfy { $0.loadState.isLoaded } == true, "no descendant is left unloaded")
        let html = page.render()
        #expect(html.contains("x data") && html.contains("y data"), "\(html)")
        #expect(!html.contains("(not loaded)"))
    }

    @Test func choosingADateReloadsEverySectionForIt() async {
        let page = DayPage(id: "day", title: "Day")
        let calendar = CalendarSection(id: "calendar", title: "Calendar")
        calendar.delegate = page
        page.addChild(calendar)
        for id: SectionID in ["summary", "sleep"] {
            page.addChild(DatedSection(id: id))
        }

        await page.loadTree(timeout: .seconds(30))
        #expect(page.render().ranges(of: "@2026-11-03").count == 2)

        calendar.choose("2026-11-04")
        let report = await page.loadTree(timeout: .seconds(30))

        #expect(report.outcomes.map(\.id) == ["summary", "sleep"])
        let html = page.render()
        #expect(html.contains("summary@2026-11-04"))
        #expect(html.contains("sleep@2026-11-04"))
        #expect(!html.contains("2026-11-03"))
    }
}

/// A section that loads for its page's date.
final class DatedSection: SectionController {
    private var text = ""

    init(id: SectionID) { super.init(id: id, title: id.rawValue) }

    override func makeLoad() -> SectionLoad? {
        let date = (parent as? DayPage)?.date ?? "no date"
        let id = id
        return SectionLoad({ "\(id)@\(date)" }) { self.text = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        p { text }.render(into: &html)
    }
}

/// A container that makes one child per item of its loaded model.
final class ListSection: SectionController {
    private let items: [String]

    init(id: SectionID, items: [String]) {
        self.items = items
        super.init(id: id, title: id.rawValue)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [items] in items }) { items in
            for item in items { self.addChild(TextSection(id: SectionID(item)) { "\(item) data" }) }
        }
    }
}
