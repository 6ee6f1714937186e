import Synchronization

/// Names each request in the log: a proxy's `X-Request-ID`, so that its
/// lines and the server's match, when it is a sane one; else this process's
/// prefix and a count (`4f1c2a-1042`), unique across replicas in practice.
enum RequestID {
    private static let count = Atomic<UInt64>(0)
    /// Six hex digits chosen once a process.
    private static let prefix: String = {
        let digits = String(UInt32.random(in: 0...0xff_ffff), radix: 16)
        return String(repeating: "0", count: 6 - digits.count) + digits
    }()

    /// A new id: the prefix and the next count.
    static func next() -> String { prefix + "-" + String(count.add(1, ordering: .relaxed).newValue) }

    /// Whether a proxy's id may name a request: 1-64 letters, digits, `-`,
    /// `_` or `.`, nothing a log line could be forged with.
    static func isSane(_ proposed: String) -> Bool {
        (1...64).contains(proposed.utf8.count)
            && proposed.utf8.allSatisfy { $0.isASCIIAlphanumeric || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") }
    }
}

extension UInt8 {
    fileprivate var isASCIIAlphanumeric: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
    }
}
