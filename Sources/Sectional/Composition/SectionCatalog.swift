/// The sections a page can show, each id with its title, and which of them
/// it shows, in order, when the query says nothing: what composition and
/// its links need to know. A `PageCatalog` adds how to make each section.
public struct SectionCatalog: Sendable, Equatable {
    /// A section's id with its title.
    public struct Entry: Sendable, Equatable {
        /// The section's id.
        public var id: SectionID
        /// The section's title, shown in its card and in the links that add it.
        public var title: String

        /// The section `id`, titled `title`.
        public init(id: SectionID, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// Every section, in the order offered to be added.
    public var entries: [Entry] { lists.entries }
    /// The sections shown, in order, when the query says nothing.
    public var defaultIDs: [SectionID] { lists.defaultIDs }
    /// Every section's id, in catalog order: kept, since every page's links read it.
    public var ids: [SectionID] { lists.ids }

    /// The three lists in one object, made once per catalog: every plan
    /// carries its catalog and is copied several times a request, and a
    /// copy then retains and releases one reference, not three.
    private final class Lists: Sendable {
        let entries: [Entry]
        let defaultIDs: [SectionID]
        let ids: [SectionID]

        init(entries: [Entry], defaultIDs: [SectionID]) {
            self.entries = entries
            self.defaultIDs = defaultIDs
            ids = entries.map(\.id)
        }
    }

    private let lists: Lists

    /// A catalog of `entries` showing `defaultIDs` by default (a repeated
    /// one shown once); every default must be an entry.
    public init(entries: [Entry], defaultIDs: [SectionID]) {
        precondition(defaultIDs.allSatisfy { id in entries.contains { $0.id == id } }, "Default sections must be in the catalog.")
        lists = Lists(entries: entries, defaultIDs: defaultIDs.uniqued())
    }

    /// Catalogs are equal when they hold the same entries and defaults (the same one at once).
    public static func == (lhs: SectionCatalog, rhs: SectionCatalog) -> Bool {
        lhs.lists === rhs.lists || (lhs.entries == rhs.entries && lhs.defaultIDs == rhs.defaultIDs)
    }

    /// Whether the catalog has the section `id`.
    public func contains(_ id: SectionID) -> Bool { entries.contains { $0.id == id } }

    /// The title of the section `id`; `nil` when the catalog has no such section.
    public func title(of id: SectionID) -> String? { entries.first { $0.id == id }?.title }
}
