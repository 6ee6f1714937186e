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
    public var entries: [(name: String, duration: Duration)] {
        added.map { (String(describing: $0.prefix) + $0.name, $0.duration) }
    }
    /// Whether nothing was added.
    public var isEmpty: Bool { added.isEmpty }

    /// An entry's name is kept in two parts, a fixed prefix and the rest,
    /// written one after the other: joined when added (`"load-" + id`), a
    /// page's six names cost 2,300 instructions.
    private struct Entry: Sendable {
        let prefix: StaticString
        let name: String
        let duration: Duration
    }
    private var added: [Entry] = []

    /// No entries yet.
    public init() {}

    /// Makes room for `count` entries in all, so that adding them allocates once.
    public mutating func reserveCapacity(_ count: Int) {
        added.reserveCapacity(count)
    }

    /// Adds an entry; `name` must be a token (letters, digits, `-`, `_`, `.`).
    public mutating func add(_ name: String, _ duration: Duration) {
        added.append(Entry(prefix: "", name: name, duration: duration))
    }

    /// Adds an entry named `prefix` then `name` (`load-` and a section's id), without joining them first.
    public mutating func add(prefix: StaticString, _ name: String, _ duration: Duration) {
        added.append(Entry(prefix: prefix, name: name, duration: duration))
    }

    /// `name;dur=MILLISECONDS, …`, milliseconds with three decimals.
    public var headerValue: String {
        String(unsafeUninitializedCapacity: capacity) { write(into: $0) }
    }

    /// The header value as a C string, lent to `body`: what libmicrohttpd
    /// copies. Written on the stack: a `String` made first (its bytes
    /// checked as UTF-8, then lent as a C string) cost 800 instructions more
    /// for a page's six entries.
    func withHeaderValueCString<Result>(_ body: (UnsafePointer<CChar>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity + 1) { buffer in
            buffer[write(into: buffer)] = 0
            return buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// The most bytes the value takes. Per entry: ", ", ";dur=", at most 19 digits, "." and three decimals.
    private var capacity: Int {
        added.reduce(0) { $0 + $1.prefix.utf8CodeUnitCount + $1.name.utf8.count + 32 }
    }

    /// Writes the value at the start of `buffer`; returns its length. Each
    /// name is copied whole and each number digit by digit: joined as
    /// strings, or written a byte at a time, a page's six entries cost more
    /// than rendering one of its sections.
    private func write(into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var count = 0
        // Each piece copied whole from its bytes: as a generic collection,
        // element by element, a piece cost 50 instructions.
        func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            if let source = bytes.baseAddress { (buffer.baseAddress! + count).initialize(from: source, count: bytes.count) }
            count += bytes.count
        }
        func write(_ literal: StaticString) { write(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)) }
        for (index, entry) in added.enumerated() {
            let (seconds, attoseconds) = entry.duration.components
            // A negative duration (a deadline set below zero) reads as zero.
            let microseconds = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
            if index > 0 { write(", ") }
            write(entry.prefix)
            entry.name.withUTF8Bytes(write)
            write(";dur=")
            count = Self.writeDigits(of: microseconds / 1000, minimumCount: 1, into: buffer, at: count)
            buffer[count] = UInt8(ascii: ".")
            count = Self.writeDigits(of: microseconds % 1000, minimumCount: 3, into: buffer, at: count + 1)
        }
        return count
    }

    /// Writes `number`'s decimal digits (it is not negative) at `start`, with leading zeros up to
    /// `minimumCount`; returns the index after them.
    private static func writeDigits(of number: Int64, minimumCount: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at start: Int) -> Int {
        var digits = 1
        var rest = number / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        let end = start + max(digits, minimumCount)
        var index = end
        rest = number
        while index > start {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        return end
    }
}
