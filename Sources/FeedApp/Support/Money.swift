import Sectional

/// An amount of money in cents, formatted the way a statement shows it.
public struct Money: Sendable, Equatable, Comparable {
    public var cents: Int

    public init(cents: Int) { self.cents = cents }

    public static func < (lhs: Money, rhs: Money) -> Bool { lhs.cents < rhs.cents }

    public var isNegative: Bool { cents < 0 }

    /// `$1,234.56`, or `−$1,234.56` with a minus sign for a negative amount.
    public var formatted: String {
        var writer = HTMLWriter(capacity: 64)
        render(into: &writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}
