/// A page's sections as types: each entry's id and title come from its
/// `CatalogSection` type, with the factory that makes it for one request.
///
/// ```swift
/// let catalog = PageCatalog<FeedContext>(
///     [
///         .section(BalancesSection.self) { _ in BalancesSection(store: store) },
///         .section(CheckupSection.self) { setup in CheckupSection(answers: setup.context.answers) },
///     ],
///     defaults: [BalancesSection.self]
/// )
/// ```
public struct PageCatalog<Context>: Sendable {
    /// One section of the catalog: its id and title, and how to make it.
    public struct Entry: Sendable {
        /// The section's id, from its type.
        public let id: SectionID
        /// The section's title, from its type.
        public let title: String
        let make: @Sendable (SectionSetup<Context>) -> SectionController

        /// The section of type `Section`, made by `make`.
        public static func section<Section: CatalogSection>(
            _ type: Section.Type, _ make: @escaping @Sendable (SectionSetup<Context>) -> Section
        ) -> Entry {
            Entry(id: Section.id, title: Section.title, make: make)
        }
    }

    /// Every section, in the order offered to be added.
    public let entries: [Entry]
    /// The ids and titles alone, for composition and links.
    public let sections: SectionCatalog
    /// Where each id's entry is in `entries`: a look-up keyed by a concrete
    /// type, where a search of the entries ran as generic code of the
    /// standard library (5,600 instructions of a page of five sections).
    private let positions: [SectionID: Int]

    /// A catalog of `entries` that shows `defaults` when the query says nothing.
    ///
    /// - Parameters:
    ///   - entries: every section, in the order offered to be added.
    ///   - defaults: the sections shown, in order, when the query says nothing.
    public init(_ entries: [Entry], defaults: [any CatalogSection.Type]) {
        self.entries = entries
        positions = Dictionary(entries.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        sections = SectionCatalog(entries: entries.map { .init(id: $0.id, title: $0.title) }, defaultIDs: defaults.map { $0.id })
    }

    /// A new controller for the section `id`; `nil` when the catalog has no such section.
    public func makeSection(_ id: SectionID, _ setup: SectionSetup<Context>) -> SectionController? {
        positions[id].map { entries[$0].make(setup) }
    }
}

/// What a catalog's section is made from: the page's own context (a date,
/// form answers) and the composition and address the page is shown with.
public struct SectionSetup<Context> {
    /// What the page read from the request besides composition: a date, form answers, or `Void`.
    public let context: Context
    /// The composition the page is shown with.
    public let plan: CompositionPlan
    /// Where the page lives, for the links a section makes.
    public let address: PageAddress
    /// Set when only this section of the plan is wanted (a fragment):
    /// `addSections(from:_:)` then makes none of the others.
    public var onlySection: SectionID?

    /// What one request's sections are made from.
    public init(context: Context, plan: CompositionPlan, address: PageAddress, onlySection: SectionID? = nil) {
        self.context = context
        self.plan = plan
        self.address = address
        self.onlySection = onlySection
    }
}
