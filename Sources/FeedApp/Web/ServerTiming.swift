/// A `Server-Timing` header value: browsers show each entry in their
/// developer tools, and the access log repeats it.
struct ServerTiming {
    private var entries: [String] = []

    /// Adds `name;dur=MILLISECONDS`. Names are section ids: tokens already.
    mutating func add(_ name: String, _ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        entries.append(name + ";dur=" + String(microseconds / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction)
    }

    var headerValue: String { entries.joined(separator: ", ") }
}
