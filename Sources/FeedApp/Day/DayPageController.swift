import Sectional

/// A section that shows one date and reloads when the date changes.
protocol DaySection: SectionController {
    var date: Day { get set }
}

/// The day page: a stack of day sections that all show one date. Its
/// calendar child reports a chosen date here (its delegate), and the page
/// reloads every child for that date, as a UIKit parent would in
/// `dateSelected(_:)` → `reloadDay(with:)`.
final class DayPageController: StackPageController, CalendarSectionDelegate {
    private(set) var date: Day

    init(date: Day) {
        self.date = date
        super.init(id: "day", title: "Day")
    }

    func calendar(_ calendar: CalendarSection, didSelect date: Day) {
        reloadDay(with: date)
    }

    /// Points every day section at `date` and marks it to load again.
    func reloadDay(with date: Day) {
        self.date = date
        for case let section as DaySection in children {
            section.date = date
        }
        setNeedsLoad()
    }
}
