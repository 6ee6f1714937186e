/// Which sections a page shows and in what order, read from its query:
///
/// - `sections=a,b` (comma lists and/or repeated) replaces the default list;
///   `sections=` alone asks for none.
/// - `add=c` appends sections not already shown; `remove=a` drops them.
///   Removal wins over addition; removing an absent section does nothing.
/// - Duplicates collapse to the first; any unknown id is an error naming the valid ones.
public struct CompositionPlan: Sendable, Equatable {
    /// The sections the plan chooses from.
    public let catalog: SectionCatalog
    /// The sections shown, in order.
    public let sectionIDs: [SectionID]

    /// The catalog's default composition.
    public init(catalog: SectionCatalog) {
        self.init(catalog: catalog, sectionIDs: catalog.defaultIDs)
    }

    init(catalog: SectionCatalog, sectionIDs: [SectionID]) {
        self.catalog = catalog
        self.sectionIDs = sectionIDs
    }

    /// The names of the query items that drive composition.
    public static let queryNames: Set<String> = ["sections", "add", "remove"]

    /// Reads `sections`, `add` and `remove` from query items; others are ignored.
    /// - Throws: `CompositionError` when an id is not in the catalog.
    public init(catalog: SectionCatalog, query: some Sequence<(name: String, value: String)>) throws(CompositionError) {
        var listed: [SectionID]?
        var added: [SectionID] = []
        var removed: [SectionID] = []
        for (name, value) in query {
            let ids = value.split(separator: ",").map { $0.trimmingCharacters(in: " ") }.filter { !$0.isEmpty }.map(SectionID.init)
            switch name {
            case "sections": listed = (listed ?? []) + ids
            case "add": added += ids
            case "remove": removed += ids
            default: continue
            }
        }
        let unknown = ((listed ?? []) + added + removed).filter { !catalog.contains($0) }
        guard unknown.isEmpty else {
            throw CompositionError(unknownIDs: unknown.uniqued(), validIDs: catalog.ids)
        }
        let shown = ((listed ?? catalog.defaultIDs) + added).uniqued().filter { !removed.contains($0) }
        self.init(catalog: catalog, sectionIDs: shown)
    }

    /// Catalog sections not shown, in catalog order: the ones a page offers to add.
    public var absentIDs: [SectionID] {
        catalog.ids.filter { !sectionIDs.contains($0) }
    }

    /// The plan without `id`; the same plan when `id` is not shown.
    public func removing(_ id: SectionID) -> CompositionPlan {
        CompositionPlan(catalog: catalog, sectionIDs: sectionIDs.filter { $0 != id })
    }

    /// The plan with `id` added last; the same plan when `id` is already shown.
    public func adding(_ id: SectionID) -> CompositionPlan {
        sectionIDs.contains(id) ? self : CompositionPlan(catalog: catalog, sectionIDs: sectionIDs + [id])
    }

    /// Whether the page shows its catalog's default sections, in order.
    public var isDefault: Bool { sectionIDs == catalog.defaultIDs }

    /// The canonical query items: none for the default list, else one
    /// `sections` item listing every id (empty when none is shown).
    public var queryItems: [(name: String, value: String)] {
        isDefault ? [] : [("sections", sectionIDs.map(\.rawValue).joined(separator: ","))]
    }
}

extension Array where Element: Hashable {
    /// The elements in order, each kept at its first place only.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension Substring {
    func trimmingCharacters(in character: Character) -> Substring {
        var trimmed = self
        while trimmed.first == character { trimmed = trimmed.dropFirst() }
        while trimmed.last == character { trimmed = trimmed.dropLast() }
        return trimmed
    }
}
