import HTTPServer
import Synchronization

/// Collects the lines a server or router logs, so tests can read them.
///
/// ```swift
/// let log = LogCollector()
/// let router = Router(logger: log.logger)
/// #expect(log.lines.contains { $0.contains("failed to load") })
/// ```
public final class LogCollector: Sendable {
    private let collected = Mutex<[String]>([])
    private let level: Logger.Level

    /// A collector with no line yet, of the lines at `level` and above.
    public init(level: Logger.Level = .info) { self.level = level }

    /// A logger whose lines this collector keeps: hand it to the router or the server.
    public var logger: Logger {
        Logger(level: level) { [self] line in collected.withLock { $0.append(line) } }
    }

    /// Every line logged so far, in order.
    public var lines: [String] { collected.withLock { $0 } }
}
