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

    // In place, as the cards are (`ReferenceStack` says why).
    override func render(into html: inout HTMLWriter) {
        html.element(Tag.ul.self) { html in
            html.forEach(alerts) { html, alert in
                html.element(Tag.li.self, .class("alert alert-", alert.severity)) { html in
                    html.element(Tag.strong.self, text: alert.title)
                    html.text(" ")
                    html.element(Tag.p.self, text: alert.body)
                }
            }
        }
    }
}
