import Sectional

/// The alerts, in the store's order.
final class AlertsSection: SectionController, CatalogSection {
    static let id: SectionID = "alerts"
    static let title = "Alerts"
    private let store: any ReferenceStore
    private var alerts: [ReferenceData.Alert] = []

    init(store: any ReferenceStore) {
        self.store = store
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store] in try store.alerts() }) { self.alerts = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        ul {
            ForEach(alerts) { alert in
                li(.class("alert alert-", alert.severity)) {
                    strong { alert.title }
                    " "
                    p { alert.body }
                }
            }
        }.render(into: &html)
    }
}
