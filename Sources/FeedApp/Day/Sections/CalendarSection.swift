import Sectional

/// What the calendar tells its parent.
protocol CalendarSectionDelegate: AnyObject {
    func calendar(_ calendar: CalendarSection, didSelect date: Day)
}

/// A week strip (Monday to Sunday) around the chosen date; each day links to
/// the page for that date, keeping the page's composition.
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
            a(.class("week-step"), .href(url(date.adding(days: -7))), .aria("label", "Previous week")) { "‹" }
            ol(.class("week")) {
                for day in week {
                    li {
                        a(attributes: day == date ? [.href(url(day)), .aria("current", "date"), .class("selected")] : [.href(url(day))]) {
                            span(.class("weekday")) { String(day.weekdayName.prefix(3)) }
                            span(.class("day-number")) { String(day.day) }
                        }
                    }
                }
            }
            a(.class("week-step"), .href(url(date.adding(days: 7))), .aria("label", "Next week")) { "›" }
        }.render(into: &html)
        p(.class("calendar-date")) { time(.datetime(date.description)) { date.longDescription } }.render(into: &html)
    }

    private func url(_ day: Day) -> String {
        PageAddress(path: "/day", context: [.init("date", day.description)]).url(for: linkPlan)
    }
}
