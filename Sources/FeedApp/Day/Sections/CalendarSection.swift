import Sectional

/// What the calendar tells its parent.
protocol CalendarSectionDelegate: AnyObject {
    func calendar(_ calendar: CalendarSection, didSelect date: Day)
}

/// A week strip (Monday to Sunday) around the chosen date, steps of a week
/// and of a month, and a form to go to any date; each leads to the page for
/// that date, keeping the page's composition.
final class CalendarSection: SectionController, CatalogSection, DaySection {
    static let id: SectionID = "calendar"
    static let title = "Calendar"
    weak var delegate: CalendarSectionDelegate?
    var date: Day
    private let linkPlan: CompositionPlan

    init(date: Day, linkPlan: CompositionPlan) {
        self.date = date
        self.linkPlan = linkPlan
        super.init(id: Self.id, title: Self.title)
    }

    /// Chooses a date: the parent hears of it and reloads the page for it.
    func select(_ day: Day) {
        delegate?.calendar(self, didSelect: day)
    }

    override func render(into html: inout HTMLWriter) {
        let monday = date.adding(days: -date.weekdayIndex)
        let week = (0..<7).map { monday.adding(days: $0) }
        nav(.class("calendar"), .aria("label", "Choose a day")) {
            weekStep(to: date.adding(days: -7), label: "Previous week", symbol: "‹")
            ol(.class("week")) {
                for day in week {
                    li {
                        // Days past the calendar's ends are shown, not linked: the page would refuse them.
                        if day.isAccepted {
                            a(attributes: day == date ? [.href(url(day)), .aria("current", "date"), .class("selected")] : [.href(url(day))]) {
                                span(.class("weekday")) { String(day.weekdayName.prefix(3)) }
                                span(.class("day-number")) { String(day.day) }
                            }
                        } else {
                            span(.class("day-outside")) {
                                span(.class("weekday")) { String(day.weekdayName.prefix(3)) }
                                span(.class("day-number")) { String(day.day) }
                            }
                        }
                    }
                }
            }
            weekStep(to: date.adding(days: 7), label: "Next week", symbol: "›")
        }.render(into: &html)
        p(.class("calendar-date")) { time(.datetime(date.description)) { date.longDescription } }.render(into: &html)
        div(.class("calendar-jumps")) {
            monthStep(to: date.adding(months: -1), label: "Previous month")
            // Any date, with no script: the browser's date input, sent as the page's own query.
            form(.class("date-picker"), .method("get"), .action("/day")) {
                ForEach(linkPlan.queryItems) { item in input(.type("hidden"), .name(item.name), .value(item.value)) }
                label(.labelFor("calendar-date-input")) { "Go to" }
                input(
                    .type("date"), .id("calendar-date-input"), .name("date"), .value(date.description),
                    HTMLAttribute("min", Day.accepted.lowerBound.description), HTMLAttribute("max", Day.accepted.upperBound.description))
                button(.type("submit")) { "Go" }
            }
            monthStep(to: date.adding(months: 1), label: "Next month")
        }.render(into: &html)
    }

    /// A link a week back or on; at the calendar's ends, the nearest accepted date, or none.
    private func weekStep(to target: Day, label: String, symbol: String) -> HTMLEither<a<String>, span<String>> {
        let clamped = min(max(target, Day.accepted.lowerBound), Day.accepted.upperBound)
        guard clamped != date else { return .second(span(.class("week-step"), .aria("hidden", "true")) { symbol }) }
        return .first(a(.class("week-step"), .href(url(clamped)), .aria("label", label)) { symbol })
    }

    /// A link a month back or on, named by its month ("‹ October"); none past the calendar's ends.
    private func monthStep(to target: Day, label: String) -> HTMLEither<a<String>, span<String>> {
        guard target.isAccepted else { return .second(span(.class("month-step"), .aria("hidden", "true")) { "" }) }
        let text = label.hasPrefix("Previous") ? "‹ " + target.monthName : target.monthName + " ›"
        let name = label + ", " + target.monthName + " " + String(target.year)
        return .first(a(.class("month-step"), .href(url(target)), .aria("label", name)) { text })
    }

    private func url(_ day: Day) -> String {
        PageAddress(path: "/day", context: [.init("date", day.description)]).url(for: linkPlan)
    }
}
