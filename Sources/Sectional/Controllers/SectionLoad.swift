/// A controller's data load, split in two so the tree never leaves its task:
/// `operation` captures only `Sendable` inputs and runs concurrently with its
/// siblings'; `deliver` hands the result back to the controller afterwards,
/// in the request's task.
///
/// An operation that never suspends (a SQLite read on the request's own
/// thread) runs to its end where it is started, with no thread hop; one that
/// waits (PostgreSQL, a remote service) leaves the thread to its siblings.
///
/// ```swift
/// SectionLoad({ [store, date] in try await store.sleep(on: date) }) { self.night = $0 }
/// ```
public struct SectionLoad {
    /// The load as an operation for a child task.
    @usableFromInline let operation: @Sendable () async throws -> any Sendable
    /// Hands the operation's result to the controller.
    @usableFromInline let deliver: (any Sendable) -> Void
    /// Whether the operation may wait, and if not, how a read past its deadline is stopped.
    @usableFromInline let placement: Placement

    /// Where a load's operation runs. A round none of whose loads waits
    /// runs them one after another in the request's own task: tasks of
    /// their own cost a SQLite page about 15,000 instructions of 325,000.
    public enum Placement: Sendable {
        /// It may wait (PostgreSQL, a remote service): it runs in a task
        /// of its own, beside its siblings, and a deadline cancels that task.
        case mayWait
        /// Its reads run on the calling thread and never wait (SQLite's
        /// readers): a read past its deadline is stopped where it runs
        /// (`LoadOptions.stopsReadsHere`), the request's task left as it is.
        case readsHere
        /// It is synchronous: it runs to its end where it starts, and
        /// nothing stops it early; past its deadline, its model is dropped.
        case synchronous
    }

    /// A load whose `operation` runs concurrently with its siblings' and
    /// whose result `deliver` hands to the controller.
    ///
    /// - Parameters:
    ///   - operation: fetches the model in a child task; it captures only
    ///     `Sendable` values (a store, an id, a date), never the controller.
    ///     Past its deadline its task is cancelled, and it should stop (the
    ///     database pools stop a running statement then).
    ///   - placement: whether the operation may wait (the default), or
    ///     reads where it is called and never waits (`.readsHere`).
    ///   - deliver: called in the calling task with the model when the
    ///     operation returns in time; it may capture `self`. Not called when
    ///     the operation throws or misses its deadline.
    ///
    /// Inlinable, so that its closures are compiled for the app's `Model`:
    /// made as generic code, each delivery asked the runtime for the
    /// metadata of `Model?` to cast its result.
    @inlinable public init<Model: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Model, placement: Placement = .mayWait,
        deliver: @escaping (Model) -> Void
    ) {
        self.operation = { try await operation() }
        self.placement = placement
        self.deliver = Self.delivering(deliver)
    }

    /// A load whose `operation` is synchronous (data in memory): it never
    /// waits, so it runs in the request's own task.
    @inlinable public init<Model: Sendable>(_ operation: @escaping @Sendable () throws -> Model, deliver: @escaping (Model) -> Void) {
        self.operation = { try operation() }
        placement = .synchronous
        self.deliver = Self.delivering(deliver)
    }

    /// `deliver`, handed the operation's result as it is kept (`any Sendable`).
    @inlinable static func delivering<Model: Sendable>(_ deliver: @escaping (Model) -> Void) -> (any Sendable) -> Void {
        { model in
            // The model is the operation's own, so the cast cannot fail.
            if let model = model as? Model { deliver(model) }
        }
    }
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
