import Sectional

/// The credit score, its band, and twelve months of history as a small chart.
final class CreditScoreSection: SectionController, CatalogSection {
    static let id: SectionID = "credit-score"
    static let title = "Credit score"
    private let store: any FeedStore
    private let user: UserID
    private var credit = CreditScore(score: 0, history: [])

    init(store: any FeedStore, user: UserID) {
        self.store = store
        self.user = user
        super.init(id: Self.id, title: Self.title)
    }

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
/// Written straight into the writer, numbers included: built as elements,
/// with a string per coordinate and label, it cost more than the rest of
/// its section.
struct HistoryChart: HTML {
    var values: [Int]
    var width = 240
    var height = 64

    func render(into html: inout HTMLWriter) {
        guard values.count > 1, let low = values.min(), let high = values.max() else { return }
        html.writeRaw(#"<div class="credit-chart"><svg class="chart" viewBox="0 0 "#)
        html.writeDecimal(width)
        html.writeRaw(" ")
        html.writeDecimal(height)
        html.writeRaw(#"" role="img" aria-label="Score history over 12 months, from "#)
        html.writeDecimal(values[0])
        html.writeRaw(" to ")
        html.writeDecimal(values[values.count - 1])
        html.writeRaw(#"">"#)
        writeLine(low: low, high: high, into: &html)
        html.writeRaw(#"</svg><div class="chart-axis"><span>12 months ago</span><span>Now</span></div></div>"#)
    }

    /// The line through the values, scaled into the chart with a 4-point margin.
    private func writeLine(low: Int, high: Int, into html: inout HTMLWriter) {
        let (range, gaps) = (max(1, high - low), values.count - 1)
        html.writeRaw(#"<polyline points=""#)
        for (index, value) in values.enumerated() {
            if index > 0 { html.writeRaw(" ") }
            html.writeDecimal(4 + Self.rounded(index * (width - 8), over: gaps))
            html.writeRaw(",")
            html.writeDecimal(4 + Self.rounded((height - 8) * (high - value), over: range))
        }
        html.writeRaw(#"" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"></polyline>"#)
    }

    /// `numerator / denominator` rounded half up, in integers (neither is
    /// ever negative here): the points `Double` and `rounded()` gave, without
    /// a call into libm for each (490 instructions a page).
    private static func rounded(_ numerator: Int, over denominator: Int) -> Int {
        (2 * numerator + denominator) / (2 * denominator)
    }
}
