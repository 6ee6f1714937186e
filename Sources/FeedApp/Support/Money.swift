/// An amount of money in cents, formatted the way a statement shows it.
public struct Money: Sendable, Equatable, Comparable {
    public var cents: Int

    public init(cents: Int) { self.cents = cents }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }

    public var isNegative: Bool { cents < 0 }

    /// `$1,234.56`, or `−$1,234.56` with a minus sign for a negative amount.
    public var formatted: String {
        let magnitude = cents.magnitude
        let dollars = String(magnitude / 100)
        var grouped = ""
        for (offset, digit) in dollars.enumerated() {
            if offset > 0 && (dollars.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        let fraction = magnitude % 100
        return (isNegative ? "\u{2212}$" : "$") + grouped + (fraction < 10 ? ".0" : ".") + String(fraction)
    }
}
