import Sectional
import SectionalAccounts

/// The credit score, its band, and twelve months of history as a small chart.
final class CreditScoreSection: SectionController, CatalogSection {
    static let id: SectionID = "credit-score"
    static let title = "Credit score"
    private let store: any FeedStore
    private let user: UserID
    /// Made once: a page asks for them several times a request.
    private let keys: Set<LiveKey>
    private var credit = CreditScore(score: 0, history: [])

    init(store: any FeedStore, user: UserID) {
        self.store = store
        self.user = user
        keys = [.creditScore(of: user)]
        super.init(id: Self.id, title: Self.title)
    }

    override var liveKeys: Set<LiveKey> { keys }

    /// The data is the live key's, and the user's alone.
    override var cacheKey: String? { user.description }

    override func makeLoad() -> SectionLoad? {
        .feed(of: user, from: store, read: { try await $0.creditScore(of: $1) }) {
            self.credit = $0
        }
    }

    // Written in place, as the feed's other default sections are: no tree made per page.
    override func render(into html: inout HTMLWriter) {
        let change = credit.history.count > 1 ? credit.score - credit.history[0] : 0
        html.element(Tag.div.self, class: "credit") { html in
            html.element(Tag.div.self, class: "credit-figure") { html in
                html.element(Tag.span.self, class: "credit-score") { $0.write(credit.score) }
                html.element(Tag.span.self, class: "credit-band") { $0.text(credit.band) }
                html.element(Tag.span.self, class: change < 0 ? "credit-change negative" : "credit-change") { html in
                    html.text(change < 0 ? "\u{2212}" : "+")
                    html.write(abs(change))
                    html.text(" in 12 months")
                }
            }
            html.write(HistoryChart(values: credit.history))
        }
    }
}

/// A line chart of monthly values, drawn as inline SVG.
///
/// Written in place, numbers included: built as elements, with a string
/// per coordinate and label, it cost more than the rest of its section.
struct HistoryChart: HTML {
    var values: [Int]
    var width = 240
    var height = 64

    func render(into html: inout HTMLWriter) {
        guard values.count > 1, let low = values.min(), let high = values.max() else { return }
        html.element(Tag.div.self, class: "credit-chart") { html in
            html.element(
                Tag.svg.self,
                attributes: { attributes in
                    attributes.attribute("class", "chart")
                    attributes.attribute("viewBox") { value in
                        value.text("0 0 ")
                        value.write(width)
                        value.text(" ")
                        value.write(height)
                    }
                    attributes.attribute("role", "img")
                    attributes.attribute("aria-label") { value in
                        value.text("Score history over 12 months, from ")
                        value.write(values[0])
                        value.text(" to ")
                        value.write(values[values.count - 1])
                    }
                }
            ) { writeLine(low: low, high: high, into: &$0) }
            html.element(Tag.div.self, class: "chart-axis") { html in
                html.element(Tag.span.self) { $0.text("12 months ago") }
                html.element(Tag.span.self) { $0.text("Now") }
            }
        }
    }

    /// The line through the values, scaled into the chart with a 4-point margin.
    private func writeLine(low: Int, high: Int, into html: inout HTMLWriter) {
        let (range, gaps) = (max(1, high - low), values.count - 1)
        html.element(
            Tag.polyline.self,
            attributes: { attributes in
                attributes.attribute("points") { points in
                    for (index, value) in values.enumerated() {
                        if index > 0 { points.text(" ") }
                        points.write(4 + Self.rounded(index * (width - 8), over: gaps))
                        points.text(",")
                        points.write(4 + Self.rounded((height - 8) * (high - value), over: range))
                    }
                }
                attributes.attribute("fill", "none")
                attributes.attribute("stroke", "currentColor")
                attributes.attribute("stroke-width", "2.5")
                attributes.attribute("stroke-linejoin", "round")
                attributes.attribute("stroke-linecap", "round")
            }
        ) { _ in }
    }

    /// `numerator / denominator` rounded half up, in integers (neither is
    /// ever negative here): the points `Double` and `rounded()` gave, without
    /// a call into libm for each (490 instructions a page).
    private static func rounded(_ numerator: Int, over denominator: Int) -> Int {
        (2 * numerator + denominator) / (2 * denominator)
    }
}
