import Synchronization

/// A fault `--simulate` injects into a section's data load, so a person can
/// watch a page degrade: `credit-score=delay:2s`, `alerts=error`, `sleep=hang`,
/// or the server end: `alerts=trap`.
public enum SimulatedFault: Sendable, Equatable {
    /// The load takes this much longer.
    case delay(Duration)
    /// The load throws.
    case error
    /// The section's first this many loads throw; then it loads: a fault
    /// that passes, for its card's "Try again".
    case failsFirst(Int)
    /// The load never finishes (until its deadline cancels it).
    case hang
    /// The load traps, as a Swift program does on an index out of range: the process ends.
    case trap

    /// The error a simulated failure throws.
    public struct InjectedError: Error, CustomStringConvertible {
        public var description: String { "simulated failure (--simulate)" }
    }

    /// Parses `SECTION=delay:300ms`, `SECTION=error`, `SECTION=error:2` or `SECTION=hang`.
    public static func parse(_ text: String) -> (section: String, fault: SimulatedFault)? {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else { return nil }
        switch parts[1] {
        case "error": return (parts[0], .error)
        case let value where value.hasPrefix("error:"):
            guard let count = Int(value.dropFirst(6)), count > 0 else { return nil }
            return (parts[0], .failsFirst(count))
        case "hang": return (parts[0], .hang)
        case "trap": return (parts[0], .trap)
        case let value where value.hasPrefix("delay:"):
            guard let duration = parseDuration(String(value.dropFirst(6))) else { return nil }
            return (parts[0], .delay(duration))
        default: return nil
        }
    }

    /// Runs `operation` with this fault applied. Waiting honours cancellation,
    /// so a deadline ends a hang, and a hang keeps nothing once cancelled.
    func apply<Model: Sendable>(to operation: @Sendable () async throws -> Model) async throws -> Model {
        switch self {
        case .delay(let duration):
            try await Task.sleep(for: duration)
            return try await operation()
        case .error, .failsFirst:
            throw InjectedError()
        case .hang:
            // Not a long Task.sleep: a cancelled sleep keeps its timer (and
            // about 700 bytes) until the time it would have ended.
            try await Self.waitForCancellation()
            throw CancellationError()
        case .trap:
            fatalError("simulated trap (--simulate)")
        }
    }
}

extension SimulatedFault {
    /// Suspends until the task is cancelled, holding nothing but the continuation.
    static func waitForCancellation() async throws {
        let waiter = CancellationWaiter()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                waiter.park(continuation)
            }
        } onCancel: {
            waiter.cancel()
        }
    }
}

/// The one continuation of a wait that ends only by cancellation, resumed
/// exactly once whichever comes first: the park or the cancel.
private final class CancellationWaiter: Sendable {
    private let state = Mutex<(continuation: CheckedContinuation<Void, any Error>?, cancelled: Bool)>((nil, false))

    func park(_ continuation: CheckedContinuation<Void, any Error>) {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.continuation = continuation }
            return state.cancelled
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
    }

    func cancel() {
        let continuation = state.withLock { state in
            state.cancelled = true
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(throwing: CancellationError())
    }
}

/// `300ms`, `2s`, `1.5s`: a duration as people type it; `nil` otherwise.
public func parseDuration(_ text: String) -> Duration? {
    let (number, unit): (Substring, Double) =
        text.hasSuffix("ms") ? (text.dropLast(2), 0.001) : text.hasSuffix("s") ? (text.dropLast(1), 1) : ("", 0)
    guard let value = Double(number), value >= 0, value.isFinite, value * unit <= 86_400 else { return nil }
    return .milliseconds(Int64((value * unit * 1000).rounded()))
}
