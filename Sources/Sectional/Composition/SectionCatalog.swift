/// The sections a page can show: each id with its title, and which of them
/// the page shows, in order, when the query says nothing.
public struct SectionCatalog: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var id: String
        public var title: String

        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// Every section, in the order offered to be added.
    public let entries: [Entry]
    public let defaultIDs: [String]

    public init(entries: [Entry], defaultIDs: [String]) {
        precondition(defaultIDs.allSatisfy { id in entries.contains { $0.id == id } }, "Default sections must be in the catalog.")
        self.entries = entries
        self.defaultIDs = defaultIDs
    }

    public var ids: [String] { entries.map(\.id) }

    public func contains(_ id: String) -> Bool { entries.contains { $0.id == id } }

    public func title(of id: String) -> String? { entries.first { $0.id == id }?.title }
}
