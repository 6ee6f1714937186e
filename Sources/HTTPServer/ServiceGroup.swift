import Dispatch
import Synchronization

/// The parts of a process that start in order and stop in reverse: the
/// database, a listener, the metrics server, the public server. Each is
/// started where it is declared; one that fails to start stops those
/// started before it. On SIGTERM or SIGINT every part is told to drain
/// (while the process still serves), the drain period passes (a second
/// signal cuts it short), and each stops, the last started first.
///
/// ```swift
/// let services = ServiceGroup(logger: log)
/// let data = try services.start("database", { try openDatabase() }, stop: { $0.close() })
/// let server = try services.start("server", { try Server.start(configuration, responder: router) },
///                                 drain: { $0.beginDraining() }, stop: { $0.stop() })
/// services.runUntilSignalled(drain: .seconds(3))
/// ```
///
/// Call `TerminationSignals.block()` first thing in `main`, before any
/// thread exists, so that the group is the one to take the signals.
public final class ServiceGroup: Sendable {
    private struct Running {
        let name: String
        let drain: @Sendable () -> Void
        let stop: @Sendable () -> Void
    }

    private let running = Mutex<[Running]>([])
    private let logger: Logger

    /// A group with nothing started yet, logging on `logger`.
    public init(logger: Logger) { self.logger = logger }

    /// Starts a part now and keeps it for the stop.
    /// - Parameters:
    ///   - name: how the log names it.
    ///   - start: starts it; what it returns is handed to `drain` and `stop`.
    ///   - drain: told when the process is asked to stop, before the drain period.
    ///   - stop: stops it, after every part started later has stopped.
    /// - Returns: what `start` returned.
    /// - Throws: what `start` threw, once the parts started before it have stopped.
    public func start<Part: Sendable>(
        _ name: String, _ start: () throws -> Part, drain: @escaping @Sendable (Part) -> Void = { _ in },
        stop: @escaping @Sendable (Part) -> Void = { _ in }
    ) throws -> Part {
        let part: Part
        do {
            part = try start()
        } catch {
            // The caller says why, once: the error names what failed.
            stopAll()
            throw error
        }
        running.withLock { $0.append(Running(name: name, drain: { drain(part) }, stop: { stop(part) })) }
        return part
    }

    /// Starts a part whose start waits (opening a database, a first read), as
    /// `start(_:_:drain:stop:)` does: this thread waits for it. `main.swift`
    /// must not `await` at top level: that makes it async, and the runtime's
    /// threads could then start before `TerminationSignals.block()`, so a
    /// signal would kill the process instead of reaching the group.
    public func start<Part: Sendable>(
        _ name: String, _ start: @escaping @Sendable () async throws -> Part, drain: @escaping @Sendable (Part) -> Void = { _ in },
        stop: @escaping @Sendable (Part) -> Void = { _ in }
    ) throws -> Part {
        try self.start(name, { try Self.waitHere(for: start) }, drain: drain, stop: stop)
    }

    /// Runs `work` in a task and waits for it on this thread.
    public static func waitHere<T: Sendable>(for work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                let value = try await work()
                outcome.withLock { $0 = .success(value) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        return try outcome.withLock { $0! }.get()
    }

    /// Waits for SIGTERM or SIGINT, tells every part to drain, lets `drain`
    /// pass (a second signal cuts it short), then stops every part, the last
    /// started first.
    /// - Returns: the signal that asked the process to stop.
    @discardableResult
    public func runUntilSignalled(drain: Duration) -> Int32 {
        let signal = TerminationSignals.wait()
        for part in running.withLock({ $0 }).reversed() { part.drain() }
        if drain > .zero {
            logger.info("signal \(signal): draining for \(drain)")
            let (seconds, attoseconds) = drain.components
            TerminationSignals.wait(timeout: Double(seconds) + Double(attoseconds) / 1e18)
        }
        stopAll()
        return signal
    }

    /// Stops every part started, the last first.
    public func stopAll() {
        let parts = running.withLock { running in
            defer { running.removeAll() }
            return running
        }
        for part in parts.reversed() {
            logger.info("stopping \(part.name)")
            part.stop()
        }
    }
}
