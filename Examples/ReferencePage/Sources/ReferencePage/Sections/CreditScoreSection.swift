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

    override func render(into html: inout HTMLWriter) {
        p(.class("score")) { credit.score }.render(into: &html)
        p(.class("band")) { credit.band }.render(into: &html)
        ol(.class("history")) {
            ForEach(credit.history) { score in li { score } }
        }.render(into: &html)
    }
}
