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
            value += String(microseconds / 1000).utf8
            value.append(UInt8(ascii: "."))
            let fraction = Int(microseconds % 1000)
            for divisor in [100, 10, 1] { value.append(UInt8(ascii: "0") + UInt8(fraction / divisor % 10)) }
        }
        return String(decoding: value, as: UTF8.self)
    }
}
