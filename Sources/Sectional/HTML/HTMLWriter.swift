/// A growing buffer of UTF-8 bytes that HTML renders into.
public struct HTMLWriter: Sendable {
    public private(set) var bytes: [UInt8] = []

    public init(capacity: Int = 4096) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends markup unescaped.
    public mutating func writeRaw(_ markup: String) {
        bytes.append(contentsOf: markup.utf8)
    }

    /// Appends markup unescaped.
    public mutating func writeRaw(_ markup: StaticString) {
        markup.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    /// Appends text with `& < > " '` escaped: safe in element content and in
    /// quoted attribute values alike.
    public mutating func writeEscaped(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            var clean = utf8.startIndex
            for index in utf8.indices {
                let replacement: StaticString
                switch utf8[index] {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case UInt8(ascii: "\""): replacement = "&quot;"
                case UInt8(ascii: "'"): replacement = "&#39;"
                default: continue
                }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean..<index]))
                replacement.withUTF8Buffer { bytes.append(contentsOf: $0) }
                clean = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[clean...]))
        }
    }

    /// Appends another writer's bytes.
    public mutating func write(_ other: HTMLWriter) {
        bytes.append(contentsOf: other.bytes)
    }
}
