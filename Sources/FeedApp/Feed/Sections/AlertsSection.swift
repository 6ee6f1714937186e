import Sectional
import SectionalSecurity

/// Alerts, most severe first, each with a form that dismisses it; a form
/// brings dismissed ones back.
final class AlertsSection: SectionController, CatalogSection {
    static let id: SectionID = "alerts"
    static let title = "Alerts"
    private let store: any FeedStore
    private let forms: FormContext
    /// The page the forms return to once they have written.
    private let back: String
    private var alerts: [FeedAlert] = []
    private var dismissedCount = 0
    /// Made once: a page asks for them several times a request.
    private let keys: Set<LiveKey>

    init(store: any FeedStore, forms: FormContext, back: String) {
        self.store = store
        self.forms = forms
        self.back = back
        keys = [.alerts(of: forms.user)]
        super.init(id: Self.id, title: Self.title)
    }

    override var liveKeys: Set<LiveKey> { keys }

    /// The alerts are the live key's; the forms are signed for the session and return to `back`.
    override var cacheKey: String? { Self.cacheKey(forms.user.description, forms.subject, back) }

    override func makeLoad() -> SectionLoad? {
        .feed(of: forms.user, from: store, read: { try await $0.alerts(of: $1) }) {
            alerts in
            // One allocation: `filter` grows its array as it goes.
            var shown: [FeedAlert] = []
            shown.reserveCapacity(alerts.count)
            for alert in alerts where !alert.isDismissed { shown.append(alert) }
            // Most severe first; the standard library's sort is stable, so
            // equally severe alerts keep the store's order.
            shown.sort { $0.severity > $1.severity }
            self.alerts = shown
            self.dismissedCount = alerts.count - shown.count
        }
    }

    // Written in place, not built as a tree: every alert is a list item with a form.
    override func render(into html: inout HTMLWriter) {
        // What a screen reader says after a live change: "Alerts updated: 2 alerts".
        if alerts.isEmpty {
            html.element(
                Tag.p.self,
                attributes: { attributes in
                    attributes.attribute("class", "quiet")
                    attributes.attribute("data-live-summary", "No alerts")
                }
            ) { $0.text("No alerts. All is well.") }
        } else {
            html.element(
                Tag.ul.self,
                attributes: { attributes in
                    attributes.attribute("class", "alerts")
                    attributes.attribute("data-live-summary", alerts.count == 1 ? "1 alert" : "\(alerts.count) alerts")
                }
            ) { html in
                html.forEach(alerts) { html, alert in
                    html.element(Tag.li.self, class: alert.severity.cssClass) { html in
                        html.element(Tag.span.self, class: "badge", text: alert.severity.label)
                        html.element(Tag.div.self) { html in
                            html.element(Tag.strong.self, text: alert.title)
                            html.element(Tag.p.self, text: alert.text)
                        }
                        writeForm(action: FeedWrites.dismissAction(of: alert.id), label: "Dismiss", labelObject: alert.title, into: &html)
                    }
                }
            }
        }
        if dismissedCount > 0 {
            let label = dismissedCount == 1 ? "Show 1 dismissed alert" : "Show \(dismissedCount) dismissed alerts"
            writeForm(action: .path(FeedWrites.restorePath), label: label, labelObject: nil, into: &html)
        }
    }

    /// A one-button form that posts to `action` with its token and the way back, refreshing this section in place with script.
    private func writeForm(action: FormAction, label: String, labelObject: String?, into html: inout HTMLWriter) {
        PostForm.write(
            action: action, token: forms.token(for: action), hidden: ("back", back), label: label, labelObject: labelObject,
            refreshes: Self.id, cssClass: "alert-action", into: &html)
    }
}
