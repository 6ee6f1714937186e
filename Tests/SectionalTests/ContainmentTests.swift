import Testing

@testable import Sectional

/// The containment contract of DESIGN.md §1: the exact order of the
/// callbacks, and what `parent` and `children` are while each one runs.
@Suite("Containment callbacks")
struct ContainmentTests {
    typealias Entry = CallbackLog.Entry

    @Test func addingCallsWillMoveThenAppendsThenDidMove() {
        let log = CallbackLog()
        let page = SectionController(id: "page", title: "Page")
        log.watched = [page]
        let a = RecordingSection("a", log: log)
        let b = RecordingSection("b", log: log)

        page.addChild(a)
        page.addChild(b)

        #expect(
            log.entries == [
                Entry("a.willMove(page)", parent: nil, tree: "page[]"),
                Entry("a.didMove(page)", parent: "page", tree: "page[a]"),
                Entry("b.willMove(page)", parent: nil, tree: "page[a]"),
                Entry("b.didMove(page)", parent: "page", tree: "page[a,b]"),
            ])
        #expect(page.children.map(\.id) == ["a", "b"])
        #expect(a.parent === page)
        #expect(b.parent === page)
    }

    @Test func removingCallsWillMoveNilThenDetachesThenDidMoveNil() {
        let log = CallbackLog()
        let page = SectionController(id: "page", title: "Page")
        log.watched = [page]
        let a = RecordingSection("a", log: log)
        let b = RecordingSection("b", log: log)
        let c = RecordingSection("c", log: log)
        page.addChild(a)
        page.addChild(b)
        page.addChild(c)
        log.clear()

        b.removeFromParent()

        #expect(
            log.entries == [
                Entry("b.willMove(nil)", parent: "page", tree: "page[a,b,c]"),
                Entry("b.didMove(nil)", parent: nil, tree: "page[a,c]"),
            ])
        #expect(b.parent == nil)
        #expect(page.children.map(\.id) == ["a", "c"])
    }

    @Test func removingAChildWithoutParentDoesNothing() {
        let log = CallbackLog()
        let page = SectionController(id: "page", title: "Page")
        log.watched = [page]
        let loner = RecordingSection("loner", log: log)

        loner.removeFromParent()
        #expect(log.entries.isEmpty)
        #expect(loner.parent == nil)

        page.addChild(loner)
        loner.removeFromParent()
        log.clear()
        loner.removeFromParent()
        #expect(log.entries.isEmpty, "a second removal must not call back again")
        #expect(page.children.isEmpty)
    }

    @Test func addingAChildOfAnotherParentMovesIt() {
        let log = CallbackLog()
        let first = SectionController(id: "first", title: "First")
        let second = SectionController(id: "second", title: "Second")
        log.watched = [first, second]
        let a = RecordingSection("a", log: log)
        let b = RecordingSection("b", log: log)
        first.addChild(a)
        second.addChild(b)
        log.clear()

        second.addChild(a)

        #expect(
            log.entries == [
                Entry("a.willMove(nil)", parent: "first", tree: "first[a] second[b]"),
                Entry("a.didMove(nil)", parent: nil, tree: "first[] second[b]"),
                Entry("a.willMove(second)", parent: nil, tree: "first[] second[b]"),
                Entry("a.didMove(second)", parent: "second", tree: "first[] second[b,a]"),
            ])
        #expect(a.parent === second)
        #expect(first.children.isEmpty)
        #expect(second.children.filter { $0 === a }.count == 1)
    }

    @Test func addingAChildAgainToTheSameParentKeepsItOnce() {
        let log = CallbackLog()
        let page = SectionController(id: "page", title: "Page")
        log.watched = [page]
        let a = RecordingSection("a", log: log)
        let b = RecordingSection("b", log: log)
        page.addChild(a)
        page.addChild(b)
        log.clear()

        page.addChild(a)

        #expect(
            log.entries == [
                Entry("a.willMove(nil)", parent: "page", tree: "page[a,b]"),
                Entry("a.didMove(nil)", parent: nil, tree: "page[b]"),
                Entry("a.willMove(page)", parent: nil, tree: "page[b]"),
                Entry("a.didMove(page)", parent: "page", tree: "page[b,a]"),
            ])
        #expect(page.children.map(\.id) == ["b", "a"])
    }

    @Test func containersNest() {
        let log = CallbackLog()
        let page = SectionController(id: "page", title: "Page")
        let group = RecordingSection("group", log: log)
        log.watched = [page, group]
        let x = RecordingSection("x", log: log)
        let y = RecordingSection("y", log: log)

        group.addChild(x)
        group.addChild(y)
        page.addChild(group)

        #expect(
            log.entries == [
                Entry("x.willMove(group)", parent: nil, tree: "page[] group[]"),
                Entry("x.didMove(group)", parent: "group", tree: "page[] group[x]"),
                Entry("y.willMove(group)", parent: nil, tree: "page[] group[x]"),
                Entry("y.didMove(group)", parent: "group", tree: "page[] group[x,y]"),
                // Only the moved controller is told; its own children keep their parent.
                Entry("group.willMove(page)", parent: nil, tree: "page[] group[x,y]"),
                Entry("group.didMove(page)", parent: "page", tree: "page[group] group[x,y]"),
            ])
        #expect(x.parent === group)
        #expect(group.parent === page)
        #expect(page.isAncestor(of: x))
        #expect(group.isAncestor(of: y))
        #expect(!x.isAncestor(of: page))
        #expect(!x.isAncestor(of: y))

        #expect(page.descendant(withID: "y") === y)
        #expect(page.descendant(withID: "group") === group)
        #expect(page.descendant(withID: "page") === page)
        #expect(page.descendant(withID: "z") == nil)
        #expect(group.descendant(withID: "page") == nil, "descendant looks down, never up")

        log.clear()
        x.removeFromParent()
        #expect(
            log.entries == [
                Entry("x.willMove(nil)", parent: "group", tree: "page[group] group[x,y]"),
                Entry("x.didMove(nil)", parent: nil, tree: "page[group] group[y]"),
            ])
        #expect(page.descendant(withID: "x") == nil)
    }

    @Test func nestedContainersRenderTheirChildrenInOrder() {
        let page = SectionController(id: "page", title: "Page")
        let group = SectionController(id: "group", title: "Group")
        page.addChild(TextSection(id: "first", text: "one"))
        page.addChild(group)
        group.addChild(TextSection(id: "inner-a", text: "two"))
        group.addChild(TextSection(id: "inner-b", text: "three"))
        page.addChild(TextSection(id: "last", text: "four"))

        #expect(page.render() == #"<p class="text">one</p><p class="text">two</p><p class="text">three</p><p class="text">four</p>"#)
    }

    @Test func aControllerCannotContainItsAncestor() async {
        await #expect(processExitsWith: .failure) {
            let page = SectionController(id: "page", title: "Page")
            let group = SectionController(id: "group", title: "Group")
            page.addChild(group)
            group.addChild(page)
        }
    }
}

extension SectionController {
    /// The default render of a controller, as a string.
    func render() -> String {
        var writer = HTMLWriter()
        renderContent(into: &writer)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
