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
        let ranges = query.utf8.withContiguousStorageIfAvailable(Self.pairs) ?? Self.pairs(in: Array(query.utf8))
        let utf8 = query.utf8
        func text(_ range: Range<Int>) -> Substring {
            query[utf8.index(utf8.startIndex, offsetBy: range.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: range.upperBound)]
        }
        var items: [QueryItem] = []
        items.reserveCapacity(ranges.count)
        for (rawName, rawValue) in ranges {
            guard let name = PercentDecoding.decode(text(rawName), plusIsSpace: true),
                let value = PercentDecoding.decode(rawValue.map(text) ?? "", plusIsSpace: true)
            else {
                throw HTTPError(.badRequest, "The query string has malformed percent-encoding.")
            }
            items.append(QueryItem(name, value))
        }
        return items
    }

    /// Each `name=value` between `&`s, as ranges of byte offsets; empty pairs are skipped.
    ///
    /// Split on the bytes: `&` and `=` are ASCII, never part of a longer
    /// character, and splitting by `Character` cost ~300 instructions a character.
    private static func pairs<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> [(name: Range<Int>, value: Range<Int>?)]
    where Bytes.Index == Int {
        var pairs: [(name: Range<Int>, value: Range<Int>?)] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            var stop = start
            while stop < bytes.endIndex && bytes[stop] != UInt8(ascii: "&") { stop += 1 }
            if stop > start {
                var equals = start
                while equals < stop && bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                pairs.append(equals < stop ? (start..<equals, (equals + 1)..<stop) : (start..<stop, nil))
            }
            start = stop + 1
        }
        return pairs
    }
}
