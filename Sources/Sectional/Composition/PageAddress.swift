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
        // A bare visit's URL is the path itself: no buffer, no new string.
        if context.isEmpty && Self.isBase(plan.sectionIDs, plan.baseIDs) { return path }
        var url = ByteWriter(capacity: 128)
        appendURL(showing: plan.sectionIDs, base: plan.baseIDs, to: &url)
        return url.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// The URL of one section's fragment, e.g. `/feed/sections/alerts?sections=alerts`.
    public func fragmentURL(of id: SectionID, in plan: CompositionPlan) -> String {
        var url = ByteWriter(capacity: 128)
        appendURL(showing: plan.sectionIDs, base: plan.baseIDs, fragment: id, to: &url)
        return url.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Appends the URL of the page showing `ids` to `bytes`, with no
    /// `sections` item when `ids` is `base`; with `fragment`, the URL of
    /// that section's fragment. For writers of other formats (the JSON
    /// description), with no string made per URL. `ids` may be a view: a
    /// plan's ids less one or with one more (`sectionIDs(removing:)`, `sectionIDs(adding:)`).
    public func appendURL(showing ids: some Collection<SectionID>, base: [SectionID], fragment: SectionID? = nil, to bytes: inout ByteWriter) {
        bytes.append(path)
        if let fragment {
            bytes.append(Self.fragmentSegment)
            bytes.append(fragment.rawValue)
        }
        appendQuery(showing: Self.isBase(ids, base) ? nil : ids, ampersand: "&", to: &bytes)
    }

    /// Whether `ids` is the base layout. Counted first: a link that adds or
    /// removes a section differs from the base in length.
    private static func isBase(_ ids: some Collection<SectionID>, _ base: [SectionID]) -> Bool {
        // A plan's own list is often its base, the very same storage, which `==` sees at once
        // (the cast is resolved when the function is specialised).
        if let ids = ids as? [SectionID] { return ids == base }
        return ids.count == base.count && ids.elementsEqual(base)
    }

    /// Writes the URL of the page showing `ids` into an attribute value:
    /// a page's add and remove links, without a plan or a string made for each.
    /// `ids` may be a view of a plan's ids less one or with one more: a link needs no array of its own.
    func writeURL(showing ids: some Collection<SectionID>, base: [SectionID], into html: inout HTMLWriter) {
        html.writeEscaped(path)
        // Percent-encoded, the query holds nothing to escape but its `&`.
        appendQuery(showing: Self.isBase(ids, base) ? nil : ids, ampersand: "&amp;", to: &html.output)
    }

    /// The query: the context's items, then `sections` listing `ids`
    /// (none when `nil`, the base layout), with `ampersand` between items.
    /// Written straight, with no piece or string made for each part: a link cost 1,800 instructions so.
    private func appendQuery(showing ids: (some Collection<SectionID>)?, ampersand: StaticString, to bytes: inout ByteWriter) {
        var first = true
        func separate() {
            if first { bytes.append("?") } else { bytes.append(ampersand) }
            first = false
        }
        for pair in context {
            separate()
            QueryEncoding.append(pair.name, to: &bytes)
            bytes.append("=")
            QueryEncoding.append(pair.value, to: &bytes)
        }
        guard let ids else { return }
        separate()
        bytes.append("sections=")
        var isFirstID = true
        for id in ids {
            if !isFirstID { bytes.append(",") }
            QueryEncoding.append(id.rawValue, to: &bytes)
            isFirstID = false
        }
    }
}

/// Percent-encoding for query names and values; `,` stays readable.
enum QueryEncoding {
    /// `text`, percent-encoded, appended to `bytes`.
    static func append(_ text: String, to bytes: inout ByteWriter) {
        // Ids and dates need no encoding: appended whole, not byte by byte
        // (checked on the string's own bytes, where it has them).
        let appendedWhole = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy(isUnreserved) else { return false }
            bytes.append(utf8)
            return true
        }
        if appendedWhole == true { return }
        let hexDigits: StaticString = "0123456789ABCDEF"
        for byte in text.utf8 {
            if isUnreserved(byte) {
                bytes.append(byte: byte)
            } else {
                bytes.append(byte: UInt8(ascii: "%"))
                bytes.append(byte: hexDigits.utf8Start[Int(byte >> 4)])
                bytes.append(byte: hexDigits.utf8Start[Int(byte & 0xF)])
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
