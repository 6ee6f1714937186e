import Testing

@testable import Sectional

/// The single-child container: replacing its child runs the old child's
/// removal callbacks, then the new child's addition callbacks.
@Suite("ContainerController")
struct ContainerControllerTests {
    typealias Entry = CallbackLog.Entry

    @Test func initialChildIsAddedWithItsCallbacks() {
        let log = CallbackLog()
        let page = RecordingSection("page", log: log)
        let shell = ContainerController(id: "shell", title: "Shell", child: page)

        #expect(log.entries.map(\.call) == ["page.willMove(shell)", "page.didMove(shell)"])
        #expect(shell.child === page)
        #expect(page.parent === shell)
    }

    @Test func setChildReplacesTheChildWithTheFullSequence() {
        let log = CallbackLog()
        let shell = ContainerController(id: "shell", title: "Shell")
        log.watched = [shell]
        let old = RecordingSection("old", log: log)
        let new = RecordingSection("new", log: log)
        shell.setChild(old)
        log.clear()

        shell.setChild(new)

        #expect(
            log.entries == [
                Entry("old.willMove(nil)", parent: "shell", tree: "shell[old]"),
                Entry("old.didMove(nil)", parent: nil, tree: "shell[]"),
                Entry("new.willMove(shell)", parent: nil, tree: "shell[]"),
                Entry("new.didMove(shell)", parent: "shell", tree: "shell[new]"),
            ])
        #expect(shell.child === new)
        #expect(shell.children.count == 1)
        #expect(old.parent == nil)
        #expect(new.parent === shell)
    }

    @Test func settingTheSameChildAgainDoesNothing() {
        let log = CallbackLog()
        let page = RecordingSection("page", log: log)
        let shell = ContainerController(id: "shell", title: "Shell", child: page)
        log.clear()

        shell.setChild(page)

        #expect(log.entries.isEmpty)
        #expect(shell.children.count == 1)
        #expect(shell.child === page)
    }

    @Test func settingNilRemovesTheChild() {
        let log = CallbackLog()
        let page = RecordingSection("page", log: log)
        let shell = ContainerController(id: "shell", title: "Shell", child: page)
        log.watched = [shell]
        log.clear()

        shell.setChild(nil)

        #expect(
            log.entries == [
                Entry("page.willMove(nil)", parent: "shell", tree: "shell[page]"),
                Entry("page.didMove(nil)", parent: nil, tree: "shell[]"),
            ])
        #expect(shell.child == nil)
        #expect(page.parent == nil)
    }

    @Test func takingAChildFromAnotherContainerMovesIt() {
        let log = CallbackLog()
        let left = RecordingContainer("left", log: log)
        let right = RecordingContainer("right", log: log)
        log.watched = [left, right]
        let page = RecordingSection("page", log: log)
        let other = RecordingSection("other", log: log)
        left.setChild(page)
        right.setChild(other)
        log.clear()

        right.setChild(page)

        #expect(
            log.entries == [
                Entry("other.willMove(nil)", parent: "right", tree: "left[page] right[other]"),
                Entry("other.didMove(nil)", parent: nil, tree: "left[page] right[]"),
                Entry("page.willMove(nil)", parent: "left", tree: "left[page] right[]"),
                Entry("page.didMove(nil)", parent: nil, tree: "left[] right[]"),
                Entry("page.willMove(right)", parent: nil, tree: "left[] right[]"),
                Entry("page.didMove(right)", parent: "right", tree: "left[] right[page]"),
            ])
        #expect(left.child == nil)
        #expect(right.child === page)
    }

    @Test func containersNestAndRenderTheirChild() {
        let log = CallbackLog()
        let shell = RecordingContainer("shell", log: log)
        let frame = RecordingContainer("frame", log: log)
        let page = TextSection(id: "page", text: "content")
        frame.setChild(page)
        shell.setChild(frame)

        #expect(log.entries.map(\.call) == ["frame.willMove(shell)", "frame.didMove(shell)"])
        #expect(shell.descendant(withID: "page") === page)
        #expect(shell.render() == #"<p class="text">content</p>"#)
    }
}
