import Synchronization

@testable import Sectional

/// A section whose load runs `operation` and renders the text it returned.
final class TextSection: SectionController {
    private let operation: (@Sendable () async throws -> String)?
    private(set) var text: String?

    /// A section with nothing to load, showing `text`.
    init(id: SectionID, title: String? = nil, text: String) {
        self.operation = nil
        self.text = text
        super.init(id: id, title: title ?? id.rawValue)
    }

    /// A section that loads its text with `operation`.
    init(id: SectionID, title: String? = nil, load operation: @escaping @Sendable () async throws -> String) {
        self.operation = operation
        super.init(id: id, title: title ?? id.rawValue)
    }

    override func makeLoad() -> SectionLoad? {
        guard let operation else { return nil }
        return SectionLoad(operation) { self.text = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        p(.class("text")) { text ?? "(not loaded)" }.render(into: &html)
    }
}

extension TextSection {
    /// A section whose load waits `milliseconds`, then returns `"<id> loaded"`.
    static func sleeping(_ id: SectionID, milliseconds: Int) -> TextSection {
        TextSection(id: id) {
            try await Task.sleep(for: .milliseconds(milliseconds))
            return "\(id) loaded"
        }
    }

    /// A section whose load throws `error`.
    static func failing(_ id: SectionID, title: String, error: some Error & Sendable) -> TextSection {
        TextSection(id: id, title: title) { throw error }
    }

    /// A section whose load counts its runs in `counter`.
    static func counting(_ id: SectionID, in counter: LoadCounter) -> TextSection {
        TextSection(id: id) {
            let run = counter.increment()
            return "\(id) run \(run)"
        }
    }
}

/// Counts how often loads ran; shared by the concurrent load operations.
final class LoadCounter: Sendable {
    private let count = Mutex(0)

    /// Adds one run and returns the new total.
    @discardableResult
    func increment() -> Int {
        count.withLock { count in
            count += 1
            return count
        }
    }

    var value: Int { count.withLock { $0 } }
}

/// Ids written down by concurrent load operations, in the order they came.
final class IDRecorder: Sendable {
    private let ids = Mutex<[SectionID]>([])

    func record(_ id: SectionID) { ids.withLock { $0.append(id) } }

    var recorded: [SectionID] { ids.withLock { $0 } }
}

struct TestLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    var reason: String
    var description: String { "TestLoadError(\(reason))" }
}

/// A weak reference, to check that controllers are freed.
struct WeakReference {
    weak var object: SectionController?
    let id: SectionID

    init(_ object: SectionController) {
        self.object = object
        self.id = object.id
    }
}

/// The feed's catalog as the tests know it: three default sections and two
/// that can be added.
let feedCatalog = SectionCatalog(
    entries: [
        .init(id: "balances", title: "Balances"),
        .init(id: "alerts", title: "Alerts"),
        .init(id: "credit-score", title: "Credit score"),
        .init(id: "recent-activity", title: "Recent activity"),
        .init(id: "checkup", title: "Financial check-up"),
    ],
    defaultIDs: ["balances", "alerts", "credit-score"]
)

/// Query items as `CompositionPlan` reads them.
func query(_ pairs: (String, String)...) -> [(name: String, value: String)] {
    pairs.map { (name: $0.0, value: $0.1) }
}

/// The part of `html` from the first occurrence of `start` up to and
/// including the next `end`; `nil` when either is missing.
func slice(of html: String, from start: String, through end: String) -> Substring? {
    guard let begin = html.firstRange(of: start),
        let finish = html[begin.upperBound...].firstRange(of: end)
    else { return nil }
    return html[begin.lowerBound..<finish.upperBound]
}

/// How many times `needle` occurs in `html`.
func occurrences(of needle: String, in html: String) -> Int {
    html.ranges(of: needle).count
}
