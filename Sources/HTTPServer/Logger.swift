#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Where the server's log lines go: standard error by default, or any sink
/// (tests collect lines to check what was logged). Each line has a time and
/// a level, as text (`2026-12-05T01:52:13.123Z warning section alerts timed
/// out`) or as one JSON object (`{"time":…,"level":"warning","message":…}`);
/// lines below the logger's level are dropped, their text never made.
public struct Logger: Sendable {
    /// How much a line matters.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// What helps to follow one request: a client that left mid-answer, libmicrohttpd's own notes.
        case debug
        /// What the server does: starting, listening, stopping; the access log.
        case info
        /// What went wrong without failing a request: a section that fell back.
        case warning
        /// A request that failed, a part of the server that stopped.
        case error

        public var description: String {
            switch self {
            case .debug: "debug"
            case .info: "info"
            case .warning: "warning"
            case .error: "error"
            }
        }

        /// The level named `name` (`debug`, `info`, `warning`, `error`).
        public init?(_ name: String) {
            guard let level = Self.allCases.first(where: { $0.description == name }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How a line is written.
    public enum Format: String, Sendable {
        /// `TIME LEVEL MESSAGE`, for people.
        case text
        /// One JSON object a line, for log pipelines.
        case json
    }

    /// Lines below this level are dropped.
    public var level: Level
    /// How lines are written.
    public var format: Format
    private let sink: @Sendable (String) -> Void

    /// A logger that hands each line, written out, to `sink`.
    public init(level: Level = .info, format: Format = .text, sink: @escaping @Sendable (String) -> Void) {
        self.level = level
        self.format = format
        self.sink = sink
    }

    /// One `write(2)` per line, so lines from many threads never interleave.
    public static let standardError = Logger { line in writeLine(line, to: 2) }

    /// Standard output, a line a `write(2)`: where a machine-read access log goes.
    public static let standardOutput = Logger { line in writeLine(line, to: 1) }

    /// This logger at `level`, writing `format`.
    public func with(level: Level, format: Format) -> Logger {
        var logger = self
        logger.level = level
        logger.format = format
        return logger
    }

    /// Whether a line at `level` would be written.
    public func logs(_ level: Level) -> Bool { level >= self.level }

    /// The request being answered, in the task that answers it: every line
    /// logged there names it, so the lines of one request can be found
    /// together (and with its access-log line).
    @TaskLocal public static var requestID: RequestID?

    /// Writes `message` at `level`, if the logger takes that level.
    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard logs(level) else { return }
        let time = LogText.now()
        let request = Self.requestID?.description
        switch format {
        case .text: sink(time + " " + level.description + (request.map { " [" + $0 + "]" } ?? "") + " " + message())
        case .json:
            let field = request.map { #","request":"# + LogText.quoted($0) } ?? ""
            sink(
                #"{"time":"# + LogText.quoted(time) + #","level":""# + level.description + #"""# + field + #","message":"#
                    + LogText.quoted(message()) + "}")
        }
    }

    /// Writes `message` at `debug`.
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    /// Writes `message` at `info`.
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    /// Writes `message` at `warning`.
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    /// Writes `message` at `error`.
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// Writes `line` as it is, with no time or level of the logger's: for a
    /// line that is a whole record of its own (a JSON access-log line).
    public func write(_ line: String) { sink(line) }

    private static func writeLine(_ line: String, to descriptor: Int32) {
        let text = line + "\n"
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = Glibc.write(descriptor, buffer.baseAddress, buffer.count - 1)
        }
    }
}
