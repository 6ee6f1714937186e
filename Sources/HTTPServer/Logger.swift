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
    public static let standardError = Logger { line in
        let text = line + "\n"
        text.utf8CString.withUnsafeBufferPointer { buffer in
            _ = write(2, buffer.baseAddress, buffer.count - 1)
        }
    }

    /// Writes one line.
    public func log(_ line: String) { sink(line) }
}
