@testable import Sectional

/// The containment callbacks of a test, in the order they ran, each with a
/// snapshot of the tree taken at that moment.
final class CallbackLog {
    struct Entry: Equatable, CustomStringConvertible {
        /// The call, e.g. `a.willMove(page)` or `a.didMove(nil)`.
        var call: String
        /// The id of the child's `parent` when the callback ran.
        var parent: String?
        /// The children of every watched container when the callback ran,
        /// e.g. `page[a,b] other[]`.
        var tree: String

        init(_ call: String, parent: String?, tree: String) {
            self.call = call
            self.parent = parent
            self.tree = tree
        }

        var description: String { "\(call) parent=\(parent ?? "nil") \(tree)" }
    }

    private(set) var entries: [Entry] = []
    /// Containers whose children are written down at every callback. Held
    /// weakly: their sections hold this log, so holding the containers back
    /// would make a cycle that outlives the test (LeakSanitizer found it).
    var watched: [SectionController] {
        get { watchedReferences.compactMap(\.container) }
        set { watchedReferences = newValue.map(WeakContainer.init) }
    }
    private var watchedReferences: [WeakContainer] = []

    private struct WeakContainer {
        weak var container: SectionController?
    }

    func record(_ callback: String, of child: SectionController, toParent target: SectionController?) {
        let tree = watched.map { "\($0.id)[\($0.children.map(\.id.rawValue).joined(separator: ","))]" }
        entries.append(
            Entry(
                "\(child.id).\(callback)(\(target?.id.rawValue ?? "nil"))",
                parent: child.parent?.id.rawValue,
                tree: tree.joined(separator: " ")
            ))
    }

    func clear() { entries.removeAll() }
}

/// A section that writes every containment callback into a shared log.
class RecordingSection: SectionController {
    let log: CallbackLog

    init(_ id: SectionID, log: CallbackLog) {
        self.log = log
        super.init(id: id, title: id.rawValue)
    }

    override func willMove(toParent parent: SectionController?) {
        log.record("willMove", of: self, toParent: parent)
    }

    override func didMove(toParent parent: SectionController?) {
        log.record("didMove", of: self, toParent: parent)
    }
}

/// A single-child container that writes its own callbacks into the log too.
final class RecordingContainer: ContainerController {
    let log: CallbackLog

    init(_ id: SectionID, log: CallbackLog) {
        self.log = log
        super.init(id: id, title: id.rawValue)
    }

    override func willMove(toParent parent: SectionController?) {
        log.record("willMove", of: self, toParent: parent)
    }

    override func didMove(toParent parent: SectionController?) {
        log.record("didMove", of: self, toParent: parent)
    }
}
