import Synchronization
import Testing

@testable import Sectional

/// A section whose data is at hand: read in a closure that cannot wait.
private final class AtHandSection: SectionController {
    private let read: @Sendable () throws -> String
    private(set) var text: String?

    init(id: SectionID, read: @escaping @Sendable () throws -> String) {
        self.read = read
        super.init(id: id, title: id.rawValue)
    }

    override func makeLoad() -> SectionLoad? { SectionLoad(atHand: read) { self.text = $0 } }
}

private struct NotAtHand: Error {}

/// `SectionLoad(atHand:)`: data already at hand is read at once, in the
/// page's own task, and delivered like any other load's.
@Suite("Loads whose data is at hand")
struct AtHandLoadTests {
    @Test func readAtOnceInThePagesTaskBeforeLoadsThatWait() async {
        let order = Mutex<[String]>([])
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(
            TextSection(id: "waits") {
                order.withLock { $0.append("waiting load started") }
                try await Task.sleep(for: .milliseconds(20))
                return "late"
            })
        page.addChild(
            AtHandSection(id: "ready") {
                order.withLock { $0.append("read at hand") }
                return "ready"
            })
        // The task the read runs in, compared with the page's own (a child task would differ).
        let pageTask = withUnsafeCurrentTask { $0.map { String($0.hashValue) } } ?? "none"
        page.addChild(AtHandSection(id: "where") { withUnsafeCurrentTask { $0.map { String($0.hashValue) } } ?? "none" })
        let report = await page.loadTree(timeout: .seconds(30))
        #expect(order.withLock { $0 } == ["read at hand", "waiting load started"])
        #expect(report.outcomes.map(\.id) == ["waits", "ready", "where"], "outcomes stay in page order")
        #expect(report.outcomes.allSatisfy { $0.status == .ok })
        #expect((page.children[1] as? AtHandSection)?.text == "ready")
        #expect(pageTask != "none")
        #expect((page.children[2] as? AtHandSection)?.text == pageTask, "read in the page's task, not a child's")
    }

    @Test func aReadThatThrowsFailsItsOwnSectionOnly() async {
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(AtHandSection(id: "broken") { throw NotAtHand() })
        page.addChild(AtHandSection(id: "fine") { "fine" })
        let report = await page.loadTree(timeout: .seconds(30))
        #expect(report.outcomes.map(\.status) == [.failed(String(describing: NotAtHand())), .ok])
        #expect(report.failedIDs == ["broken"])
        #expect(page.children[1].loadState.isLoaded)
    }

    @Test func anInterceptorReachesAtHandLoadsToo() async {
        let intercepted = Mutex<[SectionID]>([])
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(AtHandSection(id: "ready") { "ready" })
        let report = await page.loadTree(
            timeout: .milliseconds(50),
            intercept: { id, _ in
                intercepted.withLock { $0.append(id) }
                // A simulated hang: past the deadline, the fallback shows.
                return {
                    try await Task.sleep(for: .seconds(30))
                    return "never"
                }
            })
        #expect(intercepted.withLock { $0 } == ["ready"])
        #expect(report.outcomes.map(\.status) == [.timedOut])
    }
}
