import HTTPServer
import Sectional

/// The day page: calendar, summary, sleep and workout for one date.
struct DayPage: ComposedPage {
    typealias Context = Day

    let store: any DayStore
    let name = "day"

    let catalog = SectionCatalog(
        entries: [
            .init(id: CalendarSection.id, title: "Calendar"),
            .init(id: SummarySection.id, title: "Summary"),
            .init(id: SleepSection.id, title: "Sleep"),
            .init(id: WorkoutSection.id, title: "Workout"),
        ],
        defaultIDs: [CalendarSection.id, SummarySection.id, SleepSection.id, WorkoutSection.id]
    )

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
    func makePage(plan: CompositionPlan, context day: Day) -> StackPageController {
        let today = Day.today()
        let page = DayPageController(date: today)
        for id in plan.sectionIDs {
            switch id {
            case CalendarSection.id:
                let calendar = CalendarSection(date: today, linkPlan: plan)
                calendar.delegate = page
                page.addChild(calendar)
            case SummarySection.id: page.addChild(SummarySection(store: store, date: today))
            case SleepSection.id: page.addChild(SleepSection(store: store, date: today))
            case WorkoutSection.id: page.addChild(WorkoutSection(store: store, date: today))
            default: preconditionFailure("'\(id)' is not in the day page's catalog")
            }
        }
        if day != today {
            if let calendar = page.children.first(where: { $0 is CalendarSection }) as? CalendarSection {
                calendar.select(day)
            } else {
                page.reloadDay(with: day)
            }
        }
        return page
    }
}
