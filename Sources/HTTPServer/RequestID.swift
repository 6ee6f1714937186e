import Synchronization

/// A request's name in the log: a proxy's `X-Request-ID`, so that its lines
/// and the server's match, when it is a sane one; else this process's prefix
/// and a count (`4f1c2a-1042`), unique across replicas in practice. Made as
/// text only when a line is written (most requests log nothing but their
/// access line, and none when the access log is off).
public struct RequestID: Sendable, CustomStringConvertible {
    private let number: UInt64
    private let proposed: String?

    private static let count = Atomic<UInt64>(0)
    /// Six hex digits chosen once a process.
    private static let prefix: String = {
        let digits = String(UInt32.random(in: 0...0xff_ffff), radix: 16)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }()

    /// The next of this process's own.
    static func next() -> RequestID { RequestID(number: count.add(1, ordering: .relaxed).newValue, proposed: nil) }

    /// The proxy's, when it may name a request: 1-64 letters, digits, `-`,
    /// `_` or `.`, nothing a log line could be forged with; else `nil`.
    static func proposed(_ text: String) -> RequestID? {
        guard (1...64).contains(text.utf8.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) })
        else { return nil }
        return RequestID(number: 0, proposed: text)
    }

    public var description: String { proposed ?? Self.prefix + "-" + String(number) }
}
