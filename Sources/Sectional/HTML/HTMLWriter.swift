/// The buffer HTML renders into: UTF-8 bytes appended with one bounds check
/// and a `memcpy` each, the hot loop of every page.
///
/// It cannot be copied (`~Copyable`): renderers take it `inout`, and the
/// finished page is taken out once with `bytes` or `withBytes`.
public struct HTMLWriter: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// Bytes written so far.
    public private(set) var count = 0

    /// An empty buffer with room for `capacity` bytes (64 at least) before it first grows.
    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// A copy of the bytes written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Lends the bytes written, without copying them.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: count))
    }

    /// Appends markup unescaped.
    public mutating func writeRaw(_ markup: String) {
        var markup = markup
        markup.withUTF8 { append($0) }
    }

    /// Appends markup unescaped.
    public mutating func writeRaw(_ markup: StaticString) {
        append(UnsafeBufferPointer(start: markup.utf8Start, count: markup.utf8CodeUnitCount))
    }

    /// Appends text with `& < > " '` escaped: safe in element content and in
    /// quoted attribute values alike.
    public mutating func writeEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var clean = 0
            for index in 0..<utf8.count {
                let byte = utf8[index]
                // One test for the common byte: is it one of the five at all?
                guard byte < 64, Self.escapedBytes & (1 << UInt64(byte)) != 0 else { continue }
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                append(UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                writeRaw(replacement)
                clean = index + 1
            }
            append(UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
    }

    /// Bit N is set when byte N must be escaped: `"` `&` `'` `<` `>`.
    private static let escapedBytes: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// Appends another writer's bytes.
    public mutating func write(_ other: borrowing HTMLWriter) {
        other.withBytes { append($0) }
    }

    /// Appends a range of another writer's bytes.
    public mutating func write(_ other: borrowing HTMLWriter, bytes range: Range<Int>) {
        other.withBytes { append(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    private mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress, source.count > 0 else { return }
        if count + source.count > capacity { grow(toFit: count + source.count) }
        (base + count).update(from: start, count: source.count)
        count += source.count
    }

    private mutating func grow(toFit needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: count)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }
}
