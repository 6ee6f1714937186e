/// Text made of parts in one allocation: a page makes a key for each of its
/// cards on every request, kept or not. Joined with `+=`, each part cost
/// about 340 instructions: looking the feed's cards up took 15,200 a page,
/// 9,800 this way (the alerts' `cacheKey` alone, 4,300 and 1,600).
enum KeyText {
    /// `parts` with `separator` between each two, then, when given, `number`
    /// in decimal after one more, written in place: a card's entry, made for
    /// every cached card of every page, spent half its instructions growing
    /// a list of its parts and making a string of its version.
    static func joining(_ parts: some Collection<String>, then number: Int? = nil, separator: UInt8) -> String {
        let pieces = parts.count + (number == nil ? 0 : 1)
        let numberLength = number.map { decimalLength(of: $0.magnitude) + ($0 < 0 ? 1 : 0) } ?? 0
        let count = parts.reduce(max(0, pieces - 1) + numberLength) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for (index, part) in parts.enumerated() {
                if index > 0 { buffer[at] = separator; at += 1 }
                at = copy(part, into: buffer, at: at)
            }
            guard let number else { return at }
            if !parts.isEmpty { buffer[at] = separator; at += 1 }
            if number < 0 { buffer[at] = UInt8(ascii: "-"); at += 1 }
            var rest = number.magnitude
            for place in (at..<count).reversed() {
                buffer[place] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            return count
        }
    }

    /// Each of `parts` after its length in bytes and a colon (`3:abc1:d`): no
    /// two lists of parts make the same text.
    static func lengthPrefixed(_ parts: [String]) -> String {
        let count = parts.reduce(0) { $0 + $1.utf8.count + decimalLength(of: UInt($1.utf8.count)) + 1 }
        return String(unsafeUninitializedCapacity: count) { buffer in
            var at = 0
            for part in parts {
                let length = part.utf8.count
                var rest = length
                for place in (0..<decimalLength(of: UInt(length))).reversed() {
                    buffer[at + place] = UInt8(ascii: "0") + UInt8(rest % 10)
                    rest /= 10
                }
                at += decimalLength(of: UInt(length))
                buffer[at] = UInt8(ascii: ":")
                at = copy(part, into: buffer, at: at + 1)
            }
            return at
        }
    }

    /// How many decimal digits `number` has (1 for 0).
    private static func decimalLength(of number: UInt) -> Int {
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
