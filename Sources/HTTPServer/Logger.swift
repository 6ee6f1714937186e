#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Where the server's log lines go: standard error by default, or any sink
/// (tests collect lines to check what was logged).
public struct Logger: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A logger that hands each line to `sink`.
    public init(sink: @escaping @Sendable (String) -> Void) {
        self.sink = sink
    }

    /// One `write(2)` per line, so lines from many threads never interleave.
    public static let standardError = Logger { line in writeLine(line, to: 2) }

    /// Standard output, a line a `write(2)`: where a machine-read access log goes.
    public static let standardOutput = Logger { line in writeLine(line, to: 1) }

    private static func writeLine(_ line: String, to descriptor: Int32) {
        let text = line + "\n"
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = write(descriptor, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// Writes one line.
    public func log(_ line: String) { sink(line) }
}
