/// Where a composed page lives, and the query items (such as a date) that
/// every link of it must carry along with its composition.
public struct PageAddress: Sendable, Equatable {
    /// The page's path, e.g. `/feed`.
    public var path: String
    /// Items kept on every link, before the composition's, e.g. `date`.
    public var context: [QueryPair]

    /// One query item, kept as written; it is percent-encoded when a URL is built.
    public struct QueryPair: Sendable, Equatable {
        /// The item's name, e.g. `date`.
        public var name: String
        /// The item's value, e.g. `2026-11-03`.
        public var value: String
        /// The item `name=value`.
        public init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The page at `path`, whose links keep `context`.
    public init(path: String, context: [QueryPair] = []) {
        self.path = path
        self.context = context
    }

    /// What follows a page's path in its fragments' paths: `/feed/sections/alerts`.
    private static let fragmentSegment = "/sections/"

    /// The route of a page's fragments, with the id as the `{id}` parameter.
    public var fragmentRoute: String { path + Self.fragmentSegment + "{id}" }

    /// The page's URL showing `plan`.
    public func url(for plan: CompositionPlan) -> String {
        url(path, plan)
    }

    /// The URL of one section's fragment, e.g. `/feed/sections/alerts?sections=alerts`.
    public func fragmentURL(of id: SectionID, in plan: CompositionPlan) -> String {
        url(path + Self.fragmentSegment + id.rawValue, plan)
    }

    /// `path`, the context items, then the plan's canonical `sections` item.
    /// Built in one string: pages make one of these per link.
    private func url(_ path: String, _ plan: CompositionPlan) -> String {
        var url = path
        url.reserveCapacity(path.utf8.count + 64)
        var separator = "?"
        for pair in context {
            url += separator
            url += QueryEncoding.encode(pair.name)
            url += "="
            url += QueryEncoding.encode(pair.value)
            separator = "&"
        }
        if !plan.isDefault {
            url += separator
            url += "sections="
            for (index, id) in plan.sectionIDs.enumerated() {
                if index > 0 { url += "," }
                url += QueryEncoding.encode(id.rawValue)
            }
        }
        return url
    }
}

/// Percent-encoding for query names and values; `,` stays readable.
enum QueryEncoding {
    static func encode(_ text: String) -> String {
        guard !text.utf8.allSatisfy(isUnreserved) else { return text }
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count * 3)
        let hexDigits = Array("0123456789ABCDEF".utf8)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"),
            UInt8(ascii: "."), UInt8(ascii: "~"), UInt8(ascii: ","):
            true
        default:
            false
        }
    }
}
