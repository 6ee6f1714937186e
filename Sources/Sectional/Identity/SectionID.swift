/// A section's stable, URL-safe identity, e.g. `credit-score`: what query
/// items, fragment URLs, card ids and load reports name a section by.
///
/// ```swift
/// static let id: SectionID = "credit-score"
/// ```
public struct SectionID: RawRepresentable, Hashable, Comparable, Sendable, Codable,
    ExpressibleByStringLiteral, CustomStringConvertible
{
    public let rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }

    /// An id as written in a query or a path.
    public init(_ rawValue: some StringProtocol) { self.rawValue = String(rawValue) }

    public init(stringLiteral value: String) { rawValue = value }

    public var description: String { rawValue }

    public static func < (lhs: SectionID, rhs: SectionID) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// A page's section ids written as one value.
extension [SectionID] {
    /// The ids joined by commas, as a `sections` query value and a saved
    /// layout write them: `balances,alerts`. Written in place, in one
    /// allocation (`KeyText`): `map(\.rawValue).joined(separator: ",")` took
    /// 3,100 instructions for five ids.
    public var commaSeparated: String {
        // A closure, not `\.rawValue`: the key path was projected at run time, 1,300 instructions more.
        KeyText.joining(lazy.map { $0.rawValue }, separator: UInt8(ascii: ","))
    }
}
