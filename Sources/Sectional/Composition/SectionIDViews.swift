/// A plan's shown ids with one more or one fewer, as views: the
/// compositions of its add and remove links, written with no array made
/// for each (a filtered copy, or a lazy filter's closure, cost an
/// allocation a link, and a filter's count a walk of comparisons).
extension CompositionPlan {
    /// The shown ids and `id` after them: where an add link leads.
    public func sectionIDs(adding id: SectionID) -> SectionIDsAdding { SectionIDsAdding(ids: sectionIDs, last: id) }

    /// The shown ids less `id` (all of them when it is not shown): where a remove link leads.
    public func sectionIDs(removing id: SectionID) -> SectionIDsRemoving {
        SectionIDsRemoving(ids: sectionIDs, removed: sectionIDs.firstIndex(of: id))
    }
}

/// Ids with one more after them.
public struct SectionIDsAdding: RandomAccessCollection, Sendable {
    let ids: [SectionID]
    let last: SectionID

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the added id.
    public var endIndex: Int { ids.count + 1 }
    /// The id at `position`: the plan's, then the added one.
    public subscript(position: Int) -> SectionID { position < ids.count ? ids[position] : last }
}

/// Ids with the one at `removed` left out.
public struct SectionIDsRemoving: RandomAccessCollection, Sendable {
    let ids: [SectionID]
    let removed: Int?

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last id kept.
    public var endIndex: Int { removed == nil ? ids.count : ids.count - 1 }
    /// The id at `position`, counted with the removed one left out.
    public subscript(position: Int) -> SectionID {
        guard let removed, position >= removed else { return ids[position] }
        return ids[position + 1]
    }
}
