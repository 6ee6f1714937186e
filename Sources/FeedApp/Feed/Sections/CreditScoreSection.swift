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
        .feed(from: store, atHand: { [user] in try $0.creditScore(of: user) }, waiting: { [user] in try await $0.creditScore(of: user) }) {
            self.credit = $0
        }
    }

    override func render(into html: inout HTMLWriter) {
        let change = credit.history.count > 1 ? credit.score - credit.history[0] : 0
        div(.class("credit")) {
            div(.class("credit-figure")) {
                span(.class("credit-score")) { credit.score }
                span(.class("credit-band")) { credit.band }
                span(.class(change < 0 ? "credit-change negative" : "credit-change")) {
                    change < 0 ? "\u{2212}" : "+"
                    abs(change)
                    " in 12 months"
                }
            }
            HistoryChart(values: credit.history)
        }.render(into: &html)
    }
}

/// A line chart of monthly values, drawn as inline SVG.
struct HistoryChart: HTML {
    var values: [Int]
    var width = 240
    var height = 64

    func render(into html: inout HTMLWriter) {
        guard values.count > 1, let low = values.min(), let high = values.max() else { return }
        let summary = "Score history over 12 months, from \(values[0]) to \(values[values.count - 1])"
        div(.class("credit-chart")) {
            svg(.class("chart"), HTMLAttribute("viewBox", "0 0 \(width) \(height)"), .role("img"), .aria("label", summary)) {
                HTMLRenderer { html in writeLine(low: low, high: high, into: &html) }
            }
            div(.class("chart-axis")) {
                span { "12 months ago" }; span { "Now" }
            }
        }.render(into: &html)
    }

    /// The line, its points written straight into the page as numbers: a
    /// string per coordinate was most of the chart's cost.
    private func writeLine(low: Int, high: Int, into html: inout HTMLWriter) {
        let range = max(1, high - low)
        let step = Double(width - 8) / Double(values.count - 1)
        html.writeRaw(#"<polyline points=""#)
        for (index, value) in values.enumerated() {
            let x = 4 + Double(index) * step
            let y = 4 + Double(height - 8) * Double(high - value) / Double(range)
            if index > 0 { html.writeRaw(" ") }
            html.writeDecimal(Int(x.rounded()))
            html.writeRaw(",")
            html.writeDecimal(Int(y.rounded()))
        }
        html.writeRaw(#"" fill="none" stroke="currentColor" stroke-width="2.5" stroke-linejoin="round" stroke-linecap="round"></polyline>"#)
    }
}
