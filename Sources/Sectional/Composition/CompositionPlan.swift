/// Which sections a page shows and in what order, read from its query:
///
/// - `sections=a,b` (comma lists and/or repeated) replaces the default list;
///   `sections=` alone asks for none.
/// - `add=c` appends sections not already shown; `remove=a` drops them.
///   Removal wins over addition; removing an absent section does nothing.
/// - Duplicates collapse to the first; any unknown id is an error naming the valid ones.
/// - Without `sections`, the list starts from the base layout: a layout the
///   user saved, else the catalog's defaults.
public struct CompositionPlan: Sendable, Equatable {
    /// Where the list the query starts from came from.
    public enum Layout: String, Sendable {
        /// The catalog's defaults.
        case `default`
        /// A layout the user saved.
        case saved
        /// The query's `sections`.
        case query
    }

    /// The sections the plan chooses from.
    public var catalog: SectionCatalog { parts.catalog }
    /// The sections shown, in order.
    public var sectionIDs: [SectionID] { parts.sectionIDs }
    /// What the page shows when its query says nothing: links to it need no `sections`.
    public var baseIDs: [SectionID] { parts.baseIDs }
    /// Where the list came from before `add` and `remove`.
    public var layout: Layout { parts.layout }

    /// The plan's parts in one object: a page's plan is copied into its
    /// controllers, its sections' setup and every card's links, and a copy
    /// then retains one reference, not three.
    private final class Parts: Sendable {
        let catalog: SectionCatalog
        let sectionIDs: [SectionID]
        let baseIDs: [SectionID]
        let layout: Layout

        init(catalog: SectionCatalog, sectionIDs: [SectionID], baseIDs: [SectionID], layout: Layout) {
            self.catalog = catalog
            self.sectionIDs = sectionIDs
            self.baseIDs = baseIDs
            self.layout = layout
        }
    }

    private let parts: Parts

    /// The catalog's default composition.
    public init(catalog: SectionCatalog) {
        self.init(catalog: catalog, sectionIDs: catalog.defaultIDs, baseIDs: catalog.defaultIDs, layout: .default)
    }

    init(catalog: SectionCatalog, sectionIDs: [SectionID], baseIDs: [SectionID], layout: Layout) {
        parts = Parts(catalog: catalog, sectionIDs: sectionIDs, baseIDs: baseIDs, layout: layout)
    }

    /// The names of the query items that drive composition.
    public static let queryNames: Set<String> = ["sections", "add", "remove"]

    /// Reads `sections`, `add` and `remove` from query items; others are
    /// ignored. Without `sections`, starts from `saved` (ids no longer in the
    /// catalog dropped) when given, else from the catalog's defaults.
    /// - Throws: `CompositionError` when an id of the query is not in the catalog.
    public init(
        catalog: SectionCatalog, query: some Sequence<(name: String, value: String)>, saved: [SectionID]? = nil
    ) throws(CompositionError) {
        var listed: [SectionID]?
        var added: [SectionID] = []
        var removed: [SectionID] = []
        for (name, value) in query {
            let ids = Self.ids(listedIn: value)
            switch name {
            case "sections": listed = (listed ?? []) + ids
            case "add": added += ids
            case "remove": removed += ids
            default: continue
            }
        }
        // Most visits name no sections: nothing to check, and the base as it is.
        let changesBase = listed != nil || !added.isEmpty || !removed.isEmpty
        if changesBase {
            let unknown = ((listed ?? []) + added + removed).filter { !catalog.contains($0) }
            guard unknown.isEmpty else {
                throw CompositionError(unknownIDs: unknown.uniqued(), validIDs: catalog.ids)
            }
        }
        let savedIDs = saved.map { $0.filter(catalog.contains).uniqued() }
        let base = savedIDs ?? catalog.defaultIDs
        let shown = changesBase ? ((listed ?? base) + added).uniqued().filter { !removed.contains($0) } : base
        let layout: Layout = listed != nil ? .query : savedIDs != nil ? .saved : .default
        self.init(catalog: catalog, sectionIDs: shown, baseIDs: base, layout: layout)
    }

    /// The ids of a comma-separated list, each trimmed of spaces, empty ones skipped. Read on
    /// the bytes (`,` and ` ` are ASCII, never part of a longer character): split by
    /// `Character`, a list of five cost 30,000 instructions.
    static func ids(listedIn list: String) -> [SectionID] {
        var list = list
        return list.withUTF8 { bytes in
            var ids: [SectionID] = []
            var start = 0
            while start < bytes.count {
                var stop = start
                while stop < bytes.count && bytes[stop] != UInt8(ascii: ",") { stop += 1 }
                var first = start
                var last = stop
                while first < last && bytes[first] == UInt8(ascii: " ") { first += 1 }
                while last > first && bytes[last - 1] == UInt8(ascii: " ") { last -= 1 }
                if first < last {
                    ids.append(SectionID(rawValue: String(decoding: UnsafeBufferPointer(rebasing: bytes[first..<last]), as: UTF8.self)))
                }
                start = stop + 1
            }
            return ids
        }
    }

    /// Plans are equal when they show the same sections from the same base;
    /// where the list came from (`layout`) does not change what is shown.
    public static func == (lhs: CompositionPlan, rhs: CompositionPlan) -> Bool {
        lhs.catalog == rhs.catalog && lhs.sectionIDs == rhs.sectionIDs && lhs.baseIDs == rhs.baseIDs
    }

    /// Catalog sections not shown, in catalog order: the ones a page offers to add.
    public var absentIDs: [SectionID] {
        // One allocation: `filter` grows its array as it goes.
        var absent: [SectionID] = []
        absent.reserveCapacity(catalog.ids.count - min(sectionIDs.count, catalog.ids.count))
        for id in catalog.ids where !sectionIDs.contains(id) { absent.append(id) }
        return absent
    }

    /// The plan without `id`; the same plan when `id` is not shown.
    public func removing(_ id: SectionID) -> CompositionPlan {
        CompositionPlan(catalog: catalog, sectionIDs: sectionIDs.filter { $0 != id }, baseIDs: baseIDs, layout: layout)
    }

    /// The plan with `id` added last; the same plan when `id` is already shown.
    public func adding(_ id: SectionID) -> CompositionPlan {
        sectionIDs.contains(id) ? self : CompositionPlan(catalog: catalog, sectionIDs: sectionIDs + [id], baseIDs: baseIDs, layout: layout)
    }

    /// Whether the page shows its base layout (saved, else the catalog's defaults), in order.
    public var isDefault: Bool { sectionIDs == baseIDs }

    /// The canonical query items: none for the base layout, else one
    /// `sections` item listing every id (empty when none is shown).
    public var queryItems: [(name: String, value: String)] {
        isDefault ? [] : [("sections", sectionIDs.commaSeparated)]
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each kept at its first place only.
    func uniqued() -> [Element] {
        // A page's few ids are compared in place; a set only for a long list.
        guard count > 16 else {
            var kept: [Element] = []
            kept.reserveCapacity(count)
            for element in self where !kept.contains(element) { kept.append(element) }
            return kept
        }
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
