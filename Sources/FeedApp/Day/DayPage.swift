import HTTPServer
import Sectional
import SectionalServer

/// The day page: calendar, summary, sleep and workout for one date.
struct DayPage: ComposedPage {
    typealias Context = Day

    let name = "day"
    let title = "Day"
    let heading: String? = "Your day"
    let catalog: PageCatalog<Day>

    /// Sections start on today; the calendar then chooses the asked-for date (see `makePage`).
    init(store: any DayStore, user: UserID) {
        catalog = PageCatalog(
            [
                .section(CalendarSection.self) { setup in CalendarSection(date: .today(), linkPlan: setup.plan) },
                .section(SummarySection.self) { _ in SummarySection(store: store, user: user, date: .today()) },
                .section(SleepSection.self) { _ in SleepSection(store: store, user: user, date: .today()) },
                .section(WorkoutSection.self) { _ in WorkoutSection(store: store, user: user, date: .today()) },
            ],
            defaults: [CalendarSection.self, SummarySection.self, SleepSection.self, WorkoutSection.self]
        )
    }

    /// The `date` query item, today (UTC) when absent.
    func context(from request: Request) throws(HTTPError) -> Day {
        guard let text = request.queryValue("date") else { return Day.today() }
        guard let day = Day(iso: text) else {
            throw HTTPError(.badRequest, "date '\(text)' is not a valid date; use YYYY-MM-DD, e.g. 2026-11-03.")
        }
        return day
    }

    func linkContext(_ day: Day) -> [PageAddress.QueryPair] { [.init("date", day.description)] }

    /// Builds the page for today, then lets the calendar choose the asked-for
    /// date, which reaches every section through the page.
    func makePage(_ setup: SectionSetup<Day>) -> StackPageController {
        let page = DayPageController(date: .today())
        page.addSections(from: catalog, setup)
        let calendar = page.children.lazy.compactMap { $0 as? CalendarSection }.first
        calendar?.delegate = page
        if setup.context != page.date {
            if let calendar { calendar.select(setup.context) } else { page.reloadDay(with: setup.context) }
        }
        return page
    }
}
