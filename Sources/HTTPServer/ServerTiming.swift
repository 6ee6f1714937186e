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
    public var headerValue: String {
        var value = ""
        for (index, entry) in entries.enumerated() {
            let (seconds, attoseconds) = entry.duration.components
            // A negative duration (a deadline set below zero) reads as zero.
            let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
            let fraction = String(microseconds % 1000)
            if index > 0 { value += ", " }
            value += entry.name + ";dur=" + String(microseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
        return value
    }

}
