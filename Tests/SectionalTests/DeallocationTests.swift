import Testing

@testable import Sectional

/// A child tells its parent a date was chosen (the UIKit delegate pattern).
protocol DateSelectionDelegate: AnyObject {
    func dateSelected(_ date: String)
}

/// A page that owns the chosen date and reloads every child when it changes.
final class DayPage: StackPageController, DateSelectionDelegate {
    private(set) var date = "2026-11-03"
    private(set) var selections: [String] = []

    func dateSelected(_ date: String) {
        self.date = date
        selections.append(date)
        setNeedsLoad()
    }
}

/// A child that reports a chosen date to its delegate, held weakly.
final class CalendarSection: SectionController {
    weak var delegate: (any DateSelectionDelegate)?

    func choose(_ date: String) { delegate?.dateSelected(date) }
}

/// A child that calls back into its parent through a closure; the closure
/// captures the parent weakly.
final class CallbackSection: SectionController {
    var onRefresh: (() -> Void)?
}

/// After a request the whole tree is freed (DESIGN.md §1), also when children
/// call back to their parents.
@Suite("Deallocation")
struct DeallocationTests {
    /// The only strong reference to a tree is `root`.
    private struct LoadedTree {
        var root: DayPage?
        let references: [WeakReference]
        /// Whether the refresher's callback reached its parent.
        let refreshed: Bool
    }

    /// Builds page > [calendar, group > [summary, refresher], sleep], loads and
    /// renders it, and returns it with weak references to every controller.
    private func makeLoadedTree() async -> LoadedTree {
        let page = DayPage(id: "day", title: "Day")
        let calendar = CalendarSection(id: "calendar", title: "Calendar")
        calendar.delegate = page
        let group = SectionController(id: "group", title: "Group")
        let summary = TextSection(id: "summary") { "summary" }
        let refresher = CallbackSection(id: "refresher", title: "Refresher")
        refresher.onRefresh = { [weak group] in group?.setNeedsLoad() }
        let sleep = TextSection(id: "sleep") { "sleep" }

        page.addChild(calendar)
        page.addChild(group)
        group.addChild(summary)
        group.addChild(refresher)
        page.addChild(sleep)

        await page.loadTree(timeout: .seconds(30))
        var writer = HTMLWriter()
        page.render(into: &writer)

        // The callbacks reach their parents while the tree is alive: the
        // refresher reloads its group only, the calendar the whole page.
        refresher.onRefresh?()
        let refreshed = summary.loadState.isNotLoaded && sleep.loadState.isLoaded
        calendar.choose("2026-11-04")

        let references = [page, calendar, group, summary, refresher, sleep].map(WeakReference.init)
        return LoadedTree(root: page, references: references, refreshed: refreshed)
    }

    @Test func releasingTheRootFreesEveryController() async {
        var tree = await makeLoadedTree()

        #expect(tree.references.count == 6)
        #expect(tree.references.allSatisfy { $0.object != nil }, "the root keeps the tree alive")
        #expect(tree.root?.selections == ["2026-11-04"], "the calendar reached its parent")
        #expect(tree.refreshed, "the refresher reached its parent")

        tree.root = nil

        let alive = tree.references.filter { $0.object != nil }.map(\.id)
        #expect(alive.isEmpty, "still alive after the root was released: \(alive)")
    }

    @Test func aChildOutlivingItsParentLosesItsParent() {
        var page: SectionController? = SectionController(id: "page", title: "Page")
        let child = SectionController(id: "child", title: "Child")
        page?.addChild(child)
        weak let weakPage = page
        #expect(child.parent === weakPage)

        page = nil

        #expect(weakPage == nil, "a child must not keep its parent alive")
        #expect(child.parent == nil)
    }

    @Test("A parent freed clears only its own children's parent: a moved child and a grandchild keep theirs")
    func freeingAParentClearsOnlyItsOwnChildren() {
        var first: SectionController? = SectionController(id: "first", title: "First")
        let second = SectionController(id: "second", title: "Second")
        let moved = SectionController(id: "moved", title: "Moved")
        let group = SectionController(id: "group", title: "Group")
        let leaf = SectionController(id: "leaf", title: "Leaf")
        first?.addChild(moved)
        second.addChild(moved)
        first?.addChild(group)
        group.addChild(leaf)
        first = nil
        #expect(moved.parent === second)
        #expect(second.children.map(\.id) == ["moved"])
        #expect(group.parent == nil)
        #expect(leaf.parent === group, "its own parent is still alive")
        #expect(group.isAncestor(of: leaf) && !second.isAncestor(of: leaf))
    }

    @Test func aRemovedChildIsNotKeptByItsFormerParent() {
        let page = SectionController(id: "page", title: "Page")
        var child: SectionController? = SectionController(id: "child", title: "Child")
        weak let weakChild = child
        page.addChild(child!)
        child = nil
        #expect(weakChild != nil, "the parent keeps its child")

        weakChild?.removeFromParent()

        #expect(weakChild == nil)
        #expect(page.children.isEmpty)
    }
}

extension LoadState {
    var isNotLoaded: Bool {
        if case .notLoaded = self { return true }
        return false
    }

    var isLoaded: Bool {
        if case .loaded = self { return true }
        return false
    }

    var isFailed: Bool {
        if case .failed = self { return true }
        return false
    }
}
