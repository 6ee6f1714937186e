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
        String(decoding: urlBytes(path, showing: plan.isDefault ? nil : plan.sectionIDs), as: UTF8.self)
    }

    /// The URL of one section's fragment, e.g. `/feed/sections/alerts?sections=alerts`.
    public func fragmentURL(of id: SectionID, in plan: CompositionPlan) -> String {
        String(decoding: urlBytes(path + Self.fragmentSegment + id.rawValue, showing: plan.isDefault ? nil : plan.sectionIDs), as: UTF8.self)
    }

    /// Writes the URL of the page showing `ids` into an attribute value:
    /// a page's add and remove links, without a plan or a string made for each.
    func writeURL(showing ids: [SectionID], base: [SectionID], into html: inout HTMLWriter) {
        urlBytes(path, showing: ids == base ? nil : ids).withUnsafeBufferPointer { html.writeEscaped($0) }
    }

    /// `path`, the context items, then `sections` listing `ids` unless
    /// `ids` is `nil` (the base layout, which needs none). Built as bytes:
    /// pages make one of these per link.
    private func urlBytes(_ path: String, showing ids: [SectionID]?) -> [UInt8] {
        var url: [UInt8] = []
        url.reserveCapacity(path.utf8.count + 64)
        url += path.utf8
        var separator = UInt8(ascii: "?")
        for pair in context {
            url.append(separator)
            QueryEncoding.append(pair.name, to: &url)
            url.append(UInt8(ascii: "="))
            QueryEncoding.append(pair.value, to: &url)
            separator = UInt8(ascii: "&")
        }
        if let ids {
            url.append(separator)
            url += "sections=".utf8
            for (index, id) in ids.enumerated() {
                if index > 0 { url.append(UInt8(ascii: ",")) }
                QueryEncoding.append(id.rawValue, to: &url)
            }
        }
        return url
    }
}

/// Percent-encoding for query names and values; `,` stays readable.
enum QueryEncoding {
    /// `text`, percent-encoded, appended to `bytes`.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        // Ids and dates need no encoding: appended whole, not byte by byte
        // (checked on the string's own bytes, where it has them).
        if text.utf8.withContiguousStorageIfAvailable({ $0.allSatisfy(isUnreserved) }) == true {
            bytes += text.utf8
            return
        }
        let hexDigits: StaticString = "0123456789ABCDEF"
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(hexDigits.utf8Start[Int(byte >> 4)])
                bytes.append(hexDigits.utf8Start[Int(byte & 0xF)])
            }
        }
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
