/// One `name=value` pair of a query string, percent-decoded.
public struct QueryItem: Hashable, Sendable {
    /// The name, percent-decoded.
    public var name: String
    /// The value, percent-decoded (`+` is a space); empty when the item has no `=`.
    public var value: String

    /// An item from its decoded name and value.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// Parses a raw query string (without `?`). Repeated names are kept in
    /// order; `+` is a space; a name without `=` has the empty value.
    /// - Throws: a 400 `HTTPError` on malformed percent-encoding.
    public static func parse(_ query: Substring) throws(HTTPError) -> [QueryItem] {
        var items: [QueryItem] = []
        for pair in query.split(separator: "&", omittingEmptySubsequences: true) {
            let equals = pair.firstIndex(of: "=")
            let rawName = pair[..<(equals ?? pair.endIndex)]
            let rawValue = equals.map { pair[pair.index(after: $0)...] } ?? ""
            guard let name = PercentDecoding.decode(rawName, plusIsSpace: true),
                let value = PercentDecoding.decode(rawValue, plusIsSpace: true)
            else {
                throw HTTPError(.badRequest, "The query string has malformed percent-encoding.")
            }
            items.append(QueryItem(name, value))
        }
        return items
    }
}
