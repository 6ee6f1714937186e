/// The `Server-Timing` of an answer: named durations that browsers show in
/// their developer tools. The server sends it as a header and repeats it in
/// the access log.
///
/// ```swift
/// var timing = ServerTiming()
/// timing.add("load-balances", .milliseconds(3))
/// response.timing = timing
/// ```
public struct ServerTiming: Sendable {
    /// The entries in the order they were added.
    public private(set) var entries: [(name: String, duration: Duration)] = []

    /// No entries yet.
    public init() {}

    /// Adds an entry; `name` must be a token (letters, digits, `-`, `_`, `.`).
    public mutating func add(_ name: String, _ duration: Duration) {
        entries.append((name, duration))
    }

    /// `name;dur=MILLISECONDS, …`, milliseconds with three decimals.
    /// Built as bytes: joined as strings, a page's six entries cost more
    /// than rendering its sections.
    public var headerValue: String {
        var value: [UInt8] = []
        value.reserveCapacity(entries.count * 32)
        for (index, entry) in entries.enumerated() {
            let (seconds, attoseconds) = entry.duration.components
            // A negative duration (a deadline set below zero) reads as zero.
            let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
            if index > 0 { value += ", ".utf8 }
            value += entry.name.utf8
            value += ";dur=".utf8
            Self.appendDigits(of: microseconds / 1000, minimumCount: 1, to: &value)
            value.append(UInt8(ascii: "."))
            Self.appendDigits(of: microseconds % 1000, minimumCount: 3, to: &value)
        }
        return String(decoding: value, as: UTF8.self)
    }

    /// Appends `number`'s decimal digits (it is not negative), with leading zeros up to `minimumCount`.
    private static func appendDigits(of number: Int64, minimumCount: Int, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            var rest = number
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0 || digits.count - start < minimumCount
            bytes += UnsafeBufferPointer(rebasing: digits[start...])
        }
    }
}
