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
        var url: [UInt8] = []
        appendURL(showing: plan.sectionIDs, base: plan.baseIDs, to: &url)
        return String(decoding: url, as: UTF8.self)
    }

    /// The URL of one section's fragment, e.g. `/feed/sections/alerts?sections=alerts`.
    public func fragmentURL(of id: SectionID, in plan: CompositionPlan) -> String {
        var url: [UInt8] = []
        appendURL(showing: plan.sectionIDs, base: plan.baseIDs, fragment: id, to: &url)
        return String(decoding: url, as: UTF8.self)
    }

    /// Appends the URL of the page showing `ids` to `bytes`, with no
    /// `sections` item when `ids` is `base`; with `fragment`, the URL of
    /// that section's fragment. For writers of other formats (the JSON
    /// description), with no string made per URL.
    public func appendURL(showing ids: [SectionID], base: [SectionID], fragment: SectionID? = nil, to bytes: inout [UInt8]) {
        bytes.reserveCapacity(bytes.count + path.utf8.count + 64)
        build(fragment: fragment, showing: ids == base ? nil : ids) { piece in
            switch piece {
            case .plain(let text): bytes.appendUTF8(of: text)
            case .encoded(let text): QueryEncoding.append(text, to: &bytes)
            case .separator(let first): bytes.append(first ? UInt8(ascii: "?") : UInt8(ascii: "&"))
            }
        }
    }

    /// Writes the URL of the page showing `ids` into an attribute value:
    /// a page's add and remove links, without a plan or a string made for each.
    /// `ids` may be a lazy view (a plan's ids less one): a link needs no array of its own.
    func writeURL(showing ids: some Collection<SectionID>, base: [SectionID], into html: inout HTMLWriter) {
        // Counted first: a link that adds or removes a section differs from the base in length.
        let isBase = ids.count == base.count && ids.elementsEqual(base)
        build(fragment: nil, showing: isBase ? nil : ids) { piece in
            switch piece {
            case .plain(let text): html.writeEscaped(text)
            case .encoded(let text): QueryEncoding.write(text, into: &html)
            case .separator(let first): html.writeRaw(first ? "?" : "&amp;")
            }
        }
    }

    /// A URL in the order it is written: text as is, values to percent-encode,
    /// and the `?` or `&` before each query item (HTML writes `&` as `&amp;`).
    private enum Piece {
        case plain(String)
        case encoded(String)
        case separator(first: Bool)
    }

    /// Hands `write` the URL of the page, or of its `fragment`, showing
    /// `ids` (`nil`: the base layout), piece by piece.
    private func build(fragment: SectionID?, showing ids: (some Collection<SectionID>)?, _ write: (Piece) -> Void) {
        write(.plain(path))
        if let fragment {
            write(.plain(Self.fragmentSegment))
            write(.plain(fragment.rawValue))
        }
        var first = true
        for pair in context {
            write(.separator(first: first))
            write(.encoded(pair.name))
            write(.plain("="))
            write(.encoded(pair.value))
            first = false
        }
        guard let ids else { return }
        write(.separator(first: first))
        write(.plain("sections="))
        for (index, id) in ids.enumerated() {
            if index > 0 { write(.plain(",")) }
            write(.encoded(id.rawValue))
        }
    }
}

/// Percent-encoding for query names and values; `,` stays readable.
enum QueryEncoding {
    /// `text`, percent-encoded, appended to `bytes`.
    static func append(_ text: String, to bytes: inout [UInt8]) {
        // Ids and dates need no encoding: appended whole, not byte by byte
        // (checked on the string's own bytes, where it has them).
        let appendedWhole = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy(isUnreserved) else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if appendedWhole == true { return }
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

    /// `text`, percent-encoded, written into an attribute value: the
    /// encoded bytes (letters, digits, `-_.~,` and `%XX`) need no escaping.
    static func write(_ text: String, into html: inout HTMLWriter) {
        let wroteWhole = text.utf8.withContiguousStorageIfAvailable { utf8 in
            guard utf8.allSatisfy(isUnreserved) else { return false }
            html.writeRaw(utf8)
            return true
        }
        if wroteWhole == true { return }
        var bytes: [UInt8] = []
        append(text, to: &bytes)
        bytes.withUnsafeBufferPointer { html.writeRaw($0) }
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

extension Array where Element == UInt8 {
    /// Appends `text`'s UTF-8 bytes in one copy: `+= text.utf8` copies through the view, and cost
    /// a hundred instructions for a short id.
    fileprivate mutating func appendUTF8(of text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ append(contentsOf: $0) }) == nil { append(contentsOf: text.utf8) }
    }
}
