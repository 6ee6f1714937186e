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
    /// Written byte by byte into the string's own storage: joined as
    /// strings, or appended to an array piece by piece, a page's six
    /// entries cost more than rendering one of its sections.
    public var headerValue: String {
        // Per entry: ", ", ";dur=", at most 19 digits, "." and three decimals.
        let capacity = entries.reduce(0) { $0 + $1.name.utf8.count + 32 }
        return String(unsafeUninitializedCapacity: capacity) { buffer in
            var count = 0
            func write(_ byte: UInt8) {
                buffer[count] = byte
                count += 1
            }
            for (index, entry) in entries.enumerated() {
                let (seconds, attoseconds) = entry.duration.components
                // A negative duration (a deadline set below zero) reads as zero.
                let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
                if index > 0 {
                    write(UInt8(ascii: ","))
                    write(UInt8(ascii: " "))
                }
                for byte in entry.name.utf8 { write(byte) }
                for byte in ";dur=".utf8 { write(byte) }
                writeDigits(of: microseconds / 1000, minimumCount: 1, with: write)
                write(UInt8(ascii: "."))
                writeDigits(of: microseconds % 1000, minimumCount: 3, with: write)
            }
            return count
        }
    }

    /// Writes `number`'s decimal digits (it is not negative), with leading zeros up to `minimumCount`.
    private func writeDigits(of number: Int64, minimumCount: Int, with write: (UInt8) -> Void) {
        var divisor: Int64 = 1
        var digits = 1
        while number / divisor >= 10 {
            divisor *= 10
            digits += 1
        }
        for _ in digits..<max(digits, minimumCount) { write(UInt8(ascii: "0")) }
        while divisor > 0 {
            write(UInt8(ascii: "0") + UInt8((number / divisor) % 10))
            divisor /= 10
        }
    }
}
