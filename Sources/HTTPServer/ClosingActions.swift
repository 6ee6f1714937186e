/// What runs once something closes (a stream's response, a handed-over
/// body's end): an action added before the close runs at the close, one
/// added after it at once, and each runs once. Kept under its owner's lock;
/// the actions run outside it.
struct ClosingActions {
    /// Whether the close has happened.
    private(set) var isClosed = false
    private var actions: [@Sendable () -> Void] = []

    /// Keeps `action` for the close; `false` when it has happened: the caller runs `action` now.
    mutating func add(_ action: @escaping @Sendable () -> Void) -> Bool {
        if !isClosed { actions.append(action) }
        return !isClosed
    }

    /// Closes; the actions the caller runs now (none when it was closed already).
    mutating func close() -> [@Sendable () -> Void] {
        isClosed = true
        defer { actions = [] }
        return actions
    }
}
