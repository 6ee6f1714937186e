import Sectional
import SectionalAccounts

/// Steps, active minutes and calories for the day.
final class SummarySection: DayRecordSection<DaySummary>, CatalogSection {
    static let id: SectionID = "summary"
    static let title = "Summary"

    init(store: any DayStore, user: UserID, date: Day) {
        super.init(
            id: Self.id, title: Self.title, store: store, user: user, date: date, read: { try await $0.summary(of: $1, on: $2) })
    }

    override func render(into html: inout HTMLWriter) {
        guard let summary = record else {
            p(.class("quiet")) { "No activity recorded for this day." }.render(into: &html)
            return
        }
        dl(.class("stats")) {
            dt { "Steps" }; dd { grouped(summary.steps) }
            dt { "Active minutes" }; dd { String(summary.activeMinutes) }
            dt { "Calories" }; dd { grouped(summary.calories) }
        }.render(into: &html)
    }
}

/// `12,345`.
func grouped(_ number: Int) -> String {
    let digits = String(number.magnitude)
    var result = number < 0 ? "-" : ""
    for (offset, digit) in digits.enumerated() {
        if offset > 0 && (digits.count - offset) % 3 == 0 { result.append(",") }
        result.append(digit)
    }
    return result
}
