import Sectional

/// Alerts, most severe first.
final class AlertsSection: SectionController, CatalogSection {
    static let id: SectionID = "alerts"
    static let title = "Alerts"
    private let store: any FeedStore
    private var alerts: [FeedAlert] = []

    init(store: any FeedStore) {
        self.store = store
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store] in try await store.alerts() }) { alerts in
            // Stable sort: equally severe alerts keep the store's order.
            self.alerts = alerts.enumerated()
                .sorted { ($0.element.severity, -$0.offset) > ($1.element.severity, -$1.offset) }
                .map(\.element)
        }
    }

    override func render(into html: inout HTMLWriter) {
        if alerts.isEmpty {
            p(.class("quiet")) { "No alerts. All is well." }.render(into: &html)
            return
        }
        ul(.class("alerts")) {
            for alert in alerts {
                li(.class("alert alert-\(alert.severity.label.lowercased())")) {
                    span(.class("badge")) { alert.severity.label }
                    div {
                        strong { alert.title }
                        p { alert.text }
                    }
                }
            }
        }.render(into: &html)
    }
}
