import Sectional

/// The score, its band and the last twelve months.
final class CreditScoreSection: SectionController, CatalogSection {
    static let id: SectionID = "credit-score"
    static let title = "Credit score"
    private let store: any ReferenceStore
    private var credit = ReferenceData.Credit(score: 0, band: "", history: [])

    init(store: any ReferenceStore) {
        self.store = store
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store] in try store.credit() }) { self.credit = $0 }
    }

    // In place, as the cards are (`ReferenceStack` says why).
    override func render(into html: inout HTMLWriter) {
        html.element(Tag.p.self, class: "score") { $0.writeDecimal(credit.score) }
        html.element(Tag.p.self, class: "band") { $0.text(credit.band) }
        html.element(Tag.ol.self, class: "history") { html in
            for score in credit.history { html.element(Tag.li.self) { $0.writeDecimal(score) } }
        }
    }
}
