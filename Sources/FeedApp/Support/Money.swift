/// An amount of money in cents, formatted the way a statement shows it.
public struct Money: Sendable, Equatable, Comparable {
    public var cents: Int

    public init(cents: Int) { self.cents = cents }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }

    public var isNegative: Bool { cents < 0 }

    /// `$1,234.56`, or `−$1,234.56` with a minus sign for a negative amount.
    public var formatted: String { withFormattedBytes { String(decoding: $0, as: UTF8.self) } }

    /// Lends `formatted`'s UTF-8 bytes, made in a buffer on the stack: this
    /// runs for every amount on every page, and a page writes them straight
    /// into its HTML.
    func withFormattedBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // Written right to left, from the last cent digit to the sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var start = buffer.count
            func prepend(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            var rest = cents.magnitude
            for _ in 0..<2 {
                prepend(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            }
            prepend(UInt8(ascii: "."))
            var digits = 0
            repeat {
                if digits > 0 && digits % 3 == 0 { prepend(UInt8(ascii: ",")) }
                prepend(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
                digits += 1
            } while rest > 0
            prepend(UInt8(ascii: "$"))
            if isNegative {
                // U+2212 MINUS SIGN
                prepend(0x92)
                prepend(0x88)
                prepend(0xE2)
            }
            return body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}
