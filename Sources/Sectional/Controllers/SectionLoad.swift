/// A controller's data load, split in two so the tree never leaves its task:
/// `operation` captures only `Sendable` inputs and runs concurrently with its
/// siblings'; `deliver` hands the result back to the controller afterwards,
/// in the request's task.
///
/// ```swift
/// SectionLoad({ [store, date] in try await store.sleep(on: date) }) { self.night = $0 }
/// ```
public struct SectionLoad {
    private enum Kind {
        case waiting(operation: @Sendable () async throws -> any Sendable, deliver: (any Sendable) -> Void)
        case atHand(any AtHandRead)
    }
    private let kind: Kind

    /// A load whose `operation` runs concurrently with its siblings' and
    /// whose result `deliver` hands to the controller.
    ///
    /// - Parameters:
    ///   - operation: fetches the model in a child task; it captures only
    ///     `Sendable` values (a store, an id, a date), never the controller.
    ///     Past its deadline it is cancelled, and should stop.
    ///   - deliver: called in the calling task with the model when the
    ///     operation returns in time; it may capture `self`. Not called when
    ///     the operation throws or misses its deadline.
    public init<Model: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Model,
        deliver: @escaping (Model) -> Void
    ) {
        kind = .waiting(operation: { try await operation() }, deliver: Self.delivering(deliver))
    }

    /// A load whose data is already at hand (in memory, computed from the
    /// request): `read` runs at once in the page's task, before any load
    /// that waits has started, and no task is made for it. A task per load
    /// cost about 7,000 instructions, more than most sections' rendering.
    /// When every load of a page is at hand, the page needs no task at all
    /// (`loadTreeAtHand(_:)`): its reads run on the server's thread.
    ///
    /// `read` must not wait on anything (no file or database: those belong
    /// in `init(_:deliver:)`); a page under an interceptor runs it as an
    /// ordinary load, so that fault injection reaches it too.
    ///
    /// ```swift
    /// SectionLoad(atHand: { [quiz, answers] in quiz.score(answers) }) { self.score = $0 }
    /// ```
    public init<Model: Sendable>(atHand read: @escaping @Sendable () throws -> Model, deliver: @escaping (Model) -> Void) {
        // Kept typed: read and delivered with no model boxed, cast or wrapped in a closure of its own.
        kind = .atHand(TypedRead(read: read, deliver: deliver))
    }

    /// The read of a load whose data is at hand, which also delivers it: run at once in the page's task.
    var atHand: (any AtHandRead)? {
        guard case .atHand(let read) = kind else { return nil }
        return read
    }

    /// The load as an operation for a child task (an at-hand read under an interceptor becomes one).
    var operation: @Sendable () async throws -> any Sendable {
        switch kind {
        case .waiting(let operation, _): operation
        case .atHand(let read): read.operation
        }
    }

    /// Hands the operation's result to the controller.
    func deliver(_ model: any Sendable) {
        switch kind {
        case .waiting(_, let deliver): deliver(model)
        case .atHand(let read): read.deliver(model)
        }
    }

    private static func delivering<Model>(_ deliver: @escaping (Model) -> Void) -> (any Sendable) -> Void {
        { model in deliverProduced(model, to: deliver) }
    }
}

/// An at-hand load, its model's type hidden.
protocol AtHandRead: AnyObject {
    /// Reads the model and hands it to the controller.
    func readAndDeliver() throws
    /// The read as an operation for a child task.
    var operation: @Sendable () async throws -> any Sendable { get }
    /// Hands a model the operation produced to the controller.
    func deliver(_ model: any Sendable)
}

private final class TypedRead<Model: Sendable>: AtHandRead {
    let read: @Sendable () throws -> Model
    let deliverModel: (Model) -> Void

    init(read: @escaping @Sendable () throws -> Model, deliver: @escaping (Model) -> Void) {
        self.read = read
        deliverModel = deliver
    }

    func readAndDeliver() throws { deliverModel(try read()) }

    var operation: @Sendable () async throws -> any Sendable { { [read] in try read() } }

    func deliver(_ model: any Sendable) { deliverProduced(model, to: deliverModel) }
}

/// Hands `deliver` a model its operation produced, back as its own type (the cast cannot fail).
private func deliverProduced<Model>(_ model: any Sendable, to deliver: (Model) -> Void) {
    if let model = model as? Model { deliver(model) }
}

/// Whether a controller's data load has run, and how it ended.
public enum LoadState {
    /// The load has not run, or `setNeedsLoad()` asked for it again.
    case notLoaded
    /// The load delivered its model, or there was nothing to load.
    case loaded
    /// The load threw, or missed its deadline (`SectionTimedOut`): the fallback shows.
    case failed(any Error)
}
