import Sectional

/// Compact JSON written straight into bytes, for answers on the hot path.
///
/// `JSONEncoder` spends most of a `/api/…/sections` answer on its generic
/// machinery; a description has a fixed shape, so it writes itself here,
/// byte for byte as `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` would (a test holds the two equal). Keys must
/// be written in sorted order by the caller.
struct JSONWriter: ~Copyable {
    /// The JSON written so far.
    private(set) var output: ByteWriter
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    init(capacity: Int = 1024) { output = ByteWriter(capacity: capacity) }

    /// A copy of the JSON written.
    var bytes: [UInt8] { output.bytes }
    /// Ends the writer and hands its memory over, without copying (see `ByteWriter.takeBuffer()`).
    consuming func takeBuffer() -> UnsafeMutableBufferPointer<UInt8> { output.takeBuffer() }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        output.append("{")
        needsComma = false
        body(&self)
        output.append("}")
        needsComma = true
    }

    mutating func array<Elements: Sequence>(_ elements: Elements, _ write: (inout JSONWriter, Elements.Element) -> Void) {
        separate()
        output.append("[")
        needsComma = false
        for element in elements { write(&self, element) }
        output.append("]")
        needsComma = true
    }

    /// `"key":`, then the value the next call writes. Inlined, so that the
    /// key is copied at a length known when compiling.
    @inline(__always)
    mutating func key(_ key: StaticString) {
        separate()
        output.append("\"")
        output.append(key)
        output.append("\":")
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        Self.appendString(value, to: &output)
        needsComma = true
    }

    /// A string whose UTF-8 bytes `write` appends: a URL written in place,
    /// with no string made for it (escaped afterwards in the rare case it needs it).
    mutating func string(writtenBy write: (inout ByteWriter) -> Void) {
        separate()
        output.append("\"")
        let start = output.count
        write(&output)
        // Copied out only when it must be written again escaped; the lent bytes stay inside `withBytes`.
        let unescaped: [UInt8]? = output.withBytes { all in
            let written = UnsafeBufferPointer(rebasing: all[start...])
            return Self.holdsEscapable(written) ? Array(written) : nil
        }
        if let unescaped {
            output.truncate(to: start)
            Self.appendEscaped(unescaped, to: &output)
        }
        output.append("\"")
        needsComma = true
    }

    mutating func integer(_ value: Int) {
        separate()
        output.appendDecimal(value)
        needsComma = true
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// Whether `bytes` hold a byte JSON escapes: tested eight at a time, the
    /// last few as the word that ends them (a URL is 40 bytes; byte by byte
    /// the test of a list's nine URLs and ten names cost 5,600 instructions).
    static func holdsEscapable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 8 else { return bytes.contains(where: needsEscaping) }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if holdsEscapable(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) { return true }
            index += 8
        }
        return index < bytes.count && holdsEscapable(raw.loadUnaligned(fromByteOffset: bytes.count - 8, as: UInt64.self))
    }

    /// Whether one of the eight bytes in `word` is below 0x20, a quote or a backslash
    /// (Hacker's Delight 6-1: `(x - 0x01…01) & ~x & 0x80…80` is non-zero
    /// exactly when `x` has a zero byte, and with `0x20…20` when it has one below 0x20).
    @inline(__always)
    private static func holdsEscapable(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (UInt64(UInt8(ascii: "\"")) &* ones)
        let backslash = word ^ (UInt64(UInt8(ascii: "\\")) &* ones)
        let below20 = (word &- (0x20 &* ones)) & ~word
        let isQuote = (quote &- ones) & ~quote
        let isBackslash = (backslash &- ones) & ~backslash
        return (below20 | isQuote | isBackslash) & highs != 0
    }

    /// `value` as a JSON string, quoted and escaped as `JSONEncoder` escapes it (slashes left as they are).
    static func appendString(_ value: String, to output: inout ByteWriter) {
        output.append("\"")
        // Ids, titles and paths have nothing to escape: appended whole, not
        // byte by byte (checked on the string's own bytes, where it has them).
        let appendedWhole = value.utf8.withContiguousStorageIfAvailable { clean in
            guard !holdsEscapable(clean) else { return false }
            output.append(clean)
            return true
        }
        if appendedWhole != true {
            appendEscaped(value.utf8, to: &output)
        }
        output.append("\"")
    }

    /// `value` as a JSON string, quoted and escaped, for writers of other shapes.
    static func quoted(_ value: String) -> [UInt8] {
        var output = ByteWriter(capacity: value.utf8.count + 16)
        appendString(value, to: &output)
        return output.bytes
    }

    private static func appendEscaped(_ utf8: some Sequence<UInt8>, to output: inout ByteWriter) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append("\\\"")
            case UInt8(ascii: "\\"): output.append("\\\\")
            case 0x08: output.append("\\b")
            case 0x0C: output.append("\\f")
            case 0x0A: output.append("\\n")
            case 0x0D: output.append("\\r")
            case 0x09: output.append("\\t")
            case ..<0x20:
                let hex: StaticString = "0123456789abcdef"
                output.append("\\u00")
                output.append(byte: hex.utf8Start[Int(byte >> 4)])
                output.append(byte: hex.utf8Start[Int(byte & 0xF)])
            default: output.append(byte: byte)
            }
        }
    }

    private mutating func separate() {
        if needsComma { output.append(",") }
    }
}
