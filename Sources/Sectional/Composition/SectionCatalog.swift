/// The sections a page can show, each id with its title, and which of them
/// it shows, in order, when the query says nothing: what composition and
/// its links need to know. A `PageCatalog` adds how to make each section.
public struct SectionCatalog: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var id: SectionID
        public var title: String

        public init(id: SectionID, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// Every section, in the order offered to be added.
    public let entries: [Entry]
    public let defaultIDs: [SectionID]

    public init(entries: [Entry], defaultIDs: [SectionID]) {
        precondition(defaultIDs.allSatisfy { id in entries.contains { $0.id == id } }, "Default sections must be in the catalog.")
        self.entries = entries
        self.defaultIDs = defaultIDs
    }

    public var ids: [SectionID] { entries.map(\.id) }

    public func contains(_ id: SectionID) -> Bool { entries.contains { $0.id == id } }

    public func title(of id: SectionID) -> String? { entries.first { $0.id == id }?.title }
}
