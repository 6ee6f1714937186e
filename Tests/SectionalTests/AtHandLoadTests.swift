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

    override func render(into html: inout HTMLWriter) { html.writeEscaped(text ?? "") }
}

private struct NotAtHand: Error {}

/// A section whose own at-hand model is the ids of children it then adds:
/// at hand too, or waiting, as `childrenWait` says.
private final class GroupSection: SectionController {
    private let childIDs: [SectionID]
    private let childrenWait: Bool

    init(id: SectionID, children: [SectionID], childrenWait: Bool) {
        childIDs = children
        self.childrenWait = childrenWait
        super.init(id: id, title: id.rawValue)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad(atHand: { [childIDs] in childIDs }) { ids in
            for id in ids {
                self.addChild(
                    self.childrenWait ? TextSection(id: id) { "waited \(id)" } as SectionController : AtHandSection(id: id) { "read \(id)" })
            }
        }
    }
}

/// Counts the reads of at-hand sections, from whichever task reads them.
private final class ReadCount: Sendable {
    private let count = Atomic<Int>(0)
    func read(_ text: String) -> String {
        count.add(1, ordering: .relaxed)
        return text
    }
    var value: Int { count.load(ordering: .relaxed) }
}

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

    // MARK: Loading with no task at all (`loadTreeAtHand`)

    @Test func aTreeWhoseDataIsAllAtHandLoadsWithNoTask() throws {
        // A synchronous test: nothing here can wait, so no task runs the loads.
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(AtHandSection(id: "one") { "first" })
        page.addChild(TextSection(id: "fixed", text: "nothing to load"))
        page.addChild(AtHandSection(id: "broken") { throw NotAtHand() })
        let report = try #require(page.loadTreeAtHand())
        #expect(report.outcomes.map(\.id) == ["one", "broken"], "the loads run, in page order")
        #expect(report.outcomes.map(\.status) == [.ok, .failed(String(describing: NotAtHand()))])
        #expect((page.children[0] as? AtHandSection)?.text == "first")
        #expect(page.isLoadFinished)
    }

    @Test func aLoadThatWaitsLeavesTheWholeRoundToLoadTree() async throws {
        let reads = ReadCount()
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(AtHandSection(id: "ready") { reads.read("ready") })
        page.addChild(TextSection(id: "waits") { "waited" })
        #expect(page.loadTreeAtHand() == nil)
        #expect(reads.value == 0, "no read of the round ran")
        #expect(!page.isLoadFinished)
        let report = await page.loadTree(timeout: .seconds(30))
        #expect(report.outcomes.map(\.id) == ["ready", "waits"])
        #expect(reads.value == 1)
        #expect(page.isLoadFinished)
    }

    @Test func childrenAddedByAModelLoadInTheSameCallWhenTheyAreAtHand() throws {
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(GroupSection(id: "group", children: ["a", "b"], childrenWait: false))
        let report = try #require(page.loadTreeAtHand())
        #expect(report.outcomes.map(\.id) == ["group", "a", "b"])
        #expect(page.children[0].children.compactMap { ($0 as? AtHandSection)?.text } == ["read a", "read b"])
        #expect(page.isLoadFinished)
    }

    @Test func childrenThatWaitStopTheLoadAfterTheRoundThatAddedThem() async throws {
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(GroupSection(id: "group", children: ["a"], childrenWait: true))
        #expect(page.loadTreeAtHand() == nil)
        #expect(page.children[0].loadState.isLoaded, "the round before has delivered")
        #expect(!page.isLoadFinished)
        let rest = await page.loadTree(timeout: .seconds(30))
        #expect(rest.outcomes.map(\.id) == ["a"], "loadTree loads only what is left")
        #expect((page.children[0].children.first as? TextSection)?.text == "waited a")
    }

    @Test func anInterceptorSendsEveryLoadToLoadTree() {
        let reads = ReadCount()
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(AtHandSection(id: "ready") { reads.read("ready") })
        #expect(page.loadTreeAtHand(LoadOptions(intercept: { _, operation in operation })) == nil)
        #expect(reads.value == 0, "fault injection must reach every load, so none is read here")
    }

    @Test(arguments: [CardOrder.pageOrder, .asFinished])
    func aDocumentAtHandIsTheDocumentItsStreamSends(order: CardOrder) async throws {
        func document() -> PageDocument {
            let page = StackPageController(id: "feed", title: "Feed")
            page.addChild(AtHandSection(id: "balances") { "balances <at hand>" })
            page.addChild(TextSection(id: "alerts", text: "no alerts"))
            return PageDocument(title: "Feed", head: DocumentHead(language: "en", stylesheets: ["/styles.css"]), root: page, page: page)
        }
        var atHand = HTMLWriter()
        let report = try #require(document().streamAtHand(order, loading: LoadOptions(), into: &atHand))
        let bytes = atHand.bytes
        var streamed: [UInt8] = []
        let streamReport = await document().stream(order, loading: LoadOptions()) { streamed += $0 }
        #expect(bytes == streamed)
        #expect(report.outcomes.map(\.id) == streamReport.outcomes.map(\.id))
        #expect(String(decoding: bytes, as: UTF8.self).contains("balances &lt;at hand&gt;"))
        #expect(String(decoding: bytes, as: UTF8.self).contains("<slot") == (order == .asFinished))
    }

    @Test func aWholeDocumentAtHandIsTheWholeDocument() async throws {
        func document() -> PageDocument {
            let page = StackPageController(id: "feed", title: "Feed")
            page.addChild(AtHandSection(id: "balances") { "balances" })
            return PageDocument(title: "Feed", head: DocumentHead(language: "en"), root: page, page: page)
        }
        var atHand = HTMLWriter()
        let atHandDocument = document()
        _ = try #require(atHandDocument.renderWholeAtHand(loading: LoadOptions(), into: &atHand))
        var whole = HTMLWriter()
        _ = await document().renderWhole(loading: LoadOptions(), into: &whole)
        #expect(atHand.bytes == whole.bytes)
        #expect(atHandDocument.page.cardRenderTimes.map(\.id) == ["balances"], "each card's render is timed, as when sent whole")
        let waiting = StackPageController(id: "feed", title: "Feed")
        waiting.addChild(TextSection(id: "alerts") { "waits" })
        var untouched = HTMLWriter()
        let waitingDocument = PageDocument(title: "Feed", head: DocumentHead(language: "en"), root: waiting, page: waiting)
        #expect(waitingDocument.renderWholeAtHand(loading: LoadOptions(), into: &untouched) == nil)
        #expect(untouched.count == 0, "nothing is written when a load would wait")
    }

    @Test func aControllersContentPlacedInMarkupIsItsRenderOrItsFallback() throws {
        let loaded = AtHandSection(id: "notes") { "<read>" }
        let failed = AtHandSection(id: "broken") { throw NotAtHand() }
        _ = try #require(loaded.loadTreeAtHand())
        _ = try #require(failed.loadTreeAtHand())
        #expect(
            section {
                h2 { "Notes" }; loaded.content
            }.render() == "<section><h2>Notes</h2>&lt;read&gt;</section>")
        var fallback = HTMLWriter()
        failed.renderFallback(into: &fallback)
        #expect(div { failed.content }.render() == "<div>" + String(decoding: fallback.bytes, as: UTF8.self) + "</div>")
    }
}
