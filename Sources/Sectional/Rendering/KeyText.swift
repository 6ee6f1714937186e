/// Text made of parts in one allocation: a page makes a key for each of its
/// cards on every request, kept or not. Joined with `+=`, each part cost
/// about 340 instructions: looking the feed's cards up took 15,200 a page,
/// 9,800 this way (the alerts' `cacheKey` alone, 4,300 and 1,600).
enum KeyText {
    /// `parts` with `separator` between each two.
    static func joining(_ parts: [String], separator: UInt8) -> String {
        let count = parts.reduce(max(0, parts.count - 1)) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for (index, part) in parts.enumerated() {
                if index > 0 { buffer[at] = separator; at += 1 }
                at = copy(part, into: buffer, at: at)
            }
            return at
        }
    }

    /// Each of `parts` after its length in bytes and a colon (`3:abc1:d`): no
    /// two lists of parts make the same text.
    static func lengthPrefixed(_ parts: [String]) -> String {
        let count = parts.reduce(0) { $0 + $1.utf8.count + digits($1.utf8.count) + 1 }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for part in parts {
                let length = part.utf8.count
                var rest = length
                for place in (0..<digits(length)).reversed() {
                    buffer[at + place] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += digits(length)
                buffer[at] = UInt8(ascii: ":")
                at = copy(part, into: buffer, at: at + 1)
            }
            return at
        }
    }

    private static func digits(_ number: Int) -> Int {
        var digits = 1
        var rest = number / 10
        while rest > 0 { digits += 1; rest /= 10 }
        return digits
    }

    /// Copies `text`'s bytes into `buffer` from `at`; returns where they end.
    private static func copy(_ text: String, into buffer: UnsafeMutableBufferPointer<UInt8>, at: Int) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            guard let source = bytes.baseAddress, bytes.count > 0 else { return at }
            (buffer.baseAddress! + at).update(from: source, count: bytes.count)
            return at + bytes.count
        }
    }
}
