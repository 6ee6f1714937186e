/// An amount of money in cents, formatted the way a statement shows it.
public struct Money: Sendable, Equatable, Comparable {
    public var cents: Int

    public init(cents: Int) { self.cents = cents }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }

    public var isNegative: Bool { cents < 0 }

    /// `$1,234.56`, or `−$1,234.56` with a minus sign for a negative amount.
    public var formatted: String {
        // Digits are written right to left into a small buffer: this runs for every amount on every page.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        var rest = cents.magnitude
        for _ in 0..<2 {
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
        }
        bytes.append(UInt8(ascii: "."))
        var digits = 0
        repeat {
            if digits > 0 && digits % 3 == 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "0") + UInt8(rest % 10))
            rest /= 10
            digits += 1
        } while rest > 0
        bytes.append(UInt8(ascii: "$"))
        if isNegative { bytes += [0x92, 0x88, 0xE2] }  // U+2212 MINUS SIGN, reversed with the rest
        return String(decoding: bytes.reversed(), as: UTF8.self)
    }
}
