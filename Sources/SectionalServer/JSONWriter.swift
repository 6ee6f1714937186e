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
            return written.contains(where: Self.needsEscaping) ? Array(written) : nil
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

    /// `value` as a JSON string, quoted and escaped as `JSONEncoder` escapes it (slashes left as they are).
    static func appendString(_ value: String, to output: inout ByteWriter) {
        output.append("\"")
        // Ids, titles and paths have nothing to escape: appended whole, not
        // byte by byte (checked on the string's own bytes, where it has them).
        let appendedWhole = value.utf8.withContiguousStorageIfAvailable { clean in
            guard !clean.contains(where: needsEscaping) else { return false }
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
