/// A controller's data load, split in two so the tree never leaves its task:
/// `operation` captures only `Sendable` inputs and runs concurrently with its
/// siblings'; `deliver` hands the result back to the controller afterwards,
/// in the request's task.
///
/// ```swift
/// SectionLoad({ [store, date] in try await store.sleep(on: date) }) { self.night = $0 }
/// ```
public struct SectionLoad {
    let operation: @Sendable () async throws -> any Sendable
    let deliver: (any Sendable) -> Void

    public init<Model: Sendable>(
        _ operation: @escaping @Sendable () async throws -> Model,
        deliver: @escaping (Model) -> Void
    ) {
        self.operation = { try await operation() }
        self.deliver = { model in
            // The operation above produced this value: the cast cannot fail.
            if let model = model as? Model { deliver(model) }
        }
    }
}

/// Whether a controller's data load has run, and how it ended.
public enum LoadState {
    case notLoaded
    case loaded
    case failed(any Error)
}
