import Sectional

/// The bank's notices, the same for every customer: one card rendered per
/// change of the notices and served to every user and every open page that
/// shows it, never made once per reader.
final class NoticesSection: SectionController, CatalogSection {
    static let id: SectionID = "notices"
    static let title = "From your bank"
    /// The board every customer reads.
    static let board = "bank"
    private let store: any FeedStore
    private let keys: Set<LiveKey> = [.notices(on: board)]
    private var notices: [Notice] = []

    init(store: any FeedStore) {
        self.store = store
        super.init(id: Self.id, title: Self.title)
    }

    override var liveKeys: Set<LiveKey> { keys }

    /// Nothing but the board's data: no user, no form. So the card is kept once for everyone.
    override var cacheKey: String? { Self.board }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store] in try await store.notices(on: Self.board, limit: 3) }, placement: store.loadPlacement) { self.notices = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        ul(.class("notices"), .data("live-summary", notices.count == 1 ? "1 notice" : "\(notices.count) notices")) {
            ForEach(notices) { notice in
                li {
                    time(.datetime(notice.date.description)) {
                        notice.date.shortMonthName
                        " "
                        notice.date.day
                    }
                    strong { notice.title }
                    p { notice.text }
                }
            }
        }.render(into: &html)
    }
}
