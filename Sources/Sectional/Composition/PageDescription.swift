/// A composed page described for scripts: the JSON of `/api/…/sections`.
public struct PageDescription: Codable, Sendable, Equatable {
    /// A section the page shows.
    public struct Section: Codable, Sendable, Equatable {
        /// The section's id.
        public var id: SectionID
        /// The section's title.
        public var title: String
        /// 1 for the top section.
        public var position: Int
        /// Where the section's HTML fragment alone is served.
        public var fragment: String
        /// The page without this section.
        public var remove: String
        /// How its load went, `ok`, `failed` or `timed-out`, when the sections were loaded.
        public var status: String?
    }

    /// A section the page could add.
    public struct Available: Codable, Sendable, Equatable {
        /// The section's id.
        public var id: SectionID
        /// The section's title.
        public var title: String
        /// The page with this section added at the end.
        public var add: String
    }

    /// The page's canonical URL.
    public var page: String
    /// Where the list of sections started: `default`, `saved` (the user's layout) or `query`.
    public var layout: String
    /// The sections shown, top first.
    public var sections: [Section]
    /// Sections the page could add.
    public var available: [Available]

    /// Describes `plan` at `address`; with `report`, each section says how its load went.
    public init(plan: CompositionPlan, address: PageAddress, report: LoadReport? = nil) {
        page = address.url(for: plan)
        layout = plan.layout.rawValue
        sections = plan.sectionIDs.enumerated().map { index, id in
            Section(
                id: id, title: plan.catalog.title(of: id) ?? id.rawValue, position: index + 1,
                fragment: address.fragmentURL(of: id, in: plan), remove: address.url(for: plan.removing(id)),
                status: report.map { $0.outcome(of: id)?.status.name ?? "ok" })
        }
        available = plan.absentIDs.map { id in
            Available(id: id, title: plan.catalog.title(of: id) ?? id.rawValue, add: address.url(for: plan.adding(id)))
        }
    }
}
