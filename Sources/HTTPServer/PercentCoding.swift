/// Strict percent-decoding: a `%` not followed by two hex digits, or bytes
/// that are not UTF-8, make the input malformed.
enum PercentDecoding {
    static func decode(_ input: Substring, plusIsSpace: Bool) -> String? {
        let utf8 = input.utf8
        // Most paths and values have nothing to decode; tested on the bytes, not through the UTF-8 view
        // (and with no closure kept for the test, which was an allocation a request).
        func isEncoded(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "%") || (plusIsSpace && byte == UInt8(ascii: "+")) }
        guard utf8.withContiguousStorageIfAvailable({ $0.contains(where: isEncoded) }) ?? utf8.contains(where: isEncoded) else {
            return String(input)
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(utf8.count)
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            if byte == UInt8(ascii: "%") {
                let high = utf8.index(after: index)
                guard high != utf8.endIndex else { return nil }
                let low = utf8.index(after: high)
                guard low != utf8.endIndex, let h = hexValue(utf8[high]), let l = hexValue(utf8[low]) else { return nil }
                bytes.append(h << 4 | l)
                index = utf8.index(after: low)
            } else {
                bytes.append(plusIsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index = utf8.index(after: index)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// Percent-encoding of a query or form component: every byte but letters,
/// digits, `-._~` and the ones a caller keeps readable (`/` in a path).
public enum PercentEncoding {
    /// `text` with every other byte written `%XX`.
    public static func encode(_ text: String, keeping kept: String = "") -> String {
        let keptBytes = Array(kept.utf8)
        guard !text.utf8.allSatisfy({ isUnreserved($0) || keptBytes.contains($0) }) else { return text }
        let hex = Array("0123456789ABCDEF".utf8)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count * 3)
        for byte in text.utf8 {
            if isUnreserved(byte) || keptBytes.contains(byte) {
                bytes.append(byte)
            } else {
                bytes += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
            UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}
