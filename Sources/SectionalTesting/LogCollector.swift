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

    public init() {}

    public var logger: Logger {
        Logger { [self] line in collected.withLock { $0.append(line) } }
    }

    public var lines: [String] { collected.withLock { $0 } }
}
