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
    public let entries: [Entry]
    /// The sections shown, in order, when the query says nothing.
    public let defaultIDs: [SectionID]
    /// Every section's id, in catalog order: kept, since every page's links read it.
    public let ids: [SectionID]

    /// A catalog of `entries` showing `defaultIDs` by default (a repeated
    /// one shown once); every default must be an entry.
    public init(entries: [Entry], defaultIDs: [SectionID]) {
        precondition(defaultIDs.allSatisfy { id in entries.contains { $0.id == id } }, "Default sections must be in the catalog.")
        self.entries = entries
        self.defaultIDs = defaultIDs.uniqued()
        ids = entries.map(\.id)
    }

    /// Whether the catalog has the section `id`.
    public func contains(_ id: SectionID) -> Bool { entries.contains { $0.id == id } }

    /// The title of the section `id`; `nil` when the catalog has no such section.
    public func title(of id: SectionID) -> String? { entries.first { $0.id == id }?.title }
}
