/// Compact JSON written straight into bytes, for answers on the hot path.
///
/// `JSONEncoder` spends most of a `/api/…/sections` answer on its generic
/// machinery; a description has a fixed shape, so it writes itself here,
/// byte for byte as `JSONEncoder` with `.sortedKeys` and
/// `.withoutEscapingSlashes` would (a test holds the two equal). Keys must
/// be written in sorted order by the caller.
struct JSONWriter {
    private(set) var bytes: [UInt8] = []
    /// Whether the next member or element needs a comma before it.
    private var needsComma = false

    init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    mutating func array<Elements: Sequence>(_ elements: Elements, _ write: (inout JSONWriter, Elements.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in elements { write(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// `"key":`, then the value the next call writes.
    mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        bytes.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        needsComma = false
    }

    mutating func string(_ value: String) {
        separate()
        Self.appendString(value.utf8, to: &bytes)
        needsComma = true
    }

    /// A string whose UTF-8 bytes `write` appends: a URL written in place,
    /// with no string made for it (escaped afterwards in the rare case it needs it).
    mutating func string(writtenBy write: (inout [UInt8]) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        let start = bytes.count
        write(&bytes)
        if bytes[start...].contains(where: Self.needsEscaping) {
            let written = Array(bytes[start...])
            bytes.removeSubrange(start...)
            Self.appendEscaped(written, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    mutating func integer(_ value: Int) {
        separate()
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        // Digits from the last, then turned around: no string made for them.
        let start = bytes.count
        var rest = value.magnitude
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        } while rest > 0
        bytes[start...].reverse()
        needsComma = true
    }

    private static func needsEscaping(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// `utf8` as a JSON string, quoted and escaped as `JSONEncoder` escapes it (slashes left as they are).
    static func appendString(_ utf8: String.UTF8View, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        // Ids, titles and paths have nothing to escape: appended whole, not
        // byte by byte (checked on the string's own bytes, where it has them).
        let appendedWhole = utf8.withContiguousStorageIfAvailable { clean in
            guard !clean.contains(where: needsEscaping) else { return false }
            bytes.append(contentsOf: clean)
            return true
        }
        if appendedWhole != true {
            appendEscaped(utf8, to: &bytes)
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func appendEscaped(_ utf8: some Sequence<UInt8>, to bytes: inout [UInt8]) {
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
            case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
            case ..<0x20:
                let hex: StaticString = "0123456789abcdef"
                bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                bytes.append(hex.utf8Start[Int(byte >> 4)])
                bytes.append(hex.utf8Start[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
