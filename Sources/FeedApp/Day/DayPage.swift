import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer

/// The day page: calendar, summary, sleep and workout for one date.
struct DayPage: ComposedPage {
    /// The date shown, and whose.
    struct Context: Sendable {
        var day: Day
        var user: UserID
    }

    let name = "day"
    let title = "Day"
    let heading: String? = "Your day"
    let catalog: PageCatalog<Context>
    private let formGuard: FormGuard

    /// Sections start on today; the calendar then chooses the asked-for date (see `makePage`).
    init(store: any DayStore, formGuard: FormGuard) {
        self.formGuard = formGuard
        catalog = PageCatalog(
            [
                .section(CalendarSection.self) { setup in CalendarSection(date: .today(), linkPlan: setup.plan) },
                .section(SummarySection.self) { setup in SummarySection(store: store, user: setup.context.user, date: .today()) },
                .section(SleepSection.self) { setup in SleepSection(store: store, user: setup.context.user, date: .today()) },
                .section(WorkoutSection.self) { setup in WorkoutSection(store: store, user: setup.context.user, date: .today()) },
            ],
            defaults: [CalendarSection.self, SummarySection.self, SleepSection.self, WorkoutSection.self]
        )
    }

    /// Who is signed in, and the `date` query item, today (UTC) when absent.
    func context(from request: Request, visitor: SignedIn<User>?) throws(HTTPError) -> Context {
        guard let visitor else { throw .signInRequired }
        guard let text = request.queryValue("date") else { return Context(day: Day.today(), user: visitor.user.id) }
        guard let day = Day(iso: text) else {
            throw HTTPError(.badRequest, "date '\(text)' is not a valid date; use YYYY-MM-DD, e.g. 2026-11-03.")
        }
        return Context(day: day, user: visitor.user.id)
    }

    func linkContext(_ context: Context) -> [PageAddress.QueryPair] { [.init("date", context.day.description)] }

    func banner(for visitor: SignedIn<User>?, in site: Site) -> any HTML {
        SiteHeader(active: name, account: visitor.map { AccountMenu($0, formGuard: formGuard) })
    }

    /// Builds the page for today, then lets the calendar choose the asked-for
    /// date, which reaches every section through the page.
    func makePage(_ setup: SectionSetup<Context>) -> StackPageController {
        let page = DayPageController(date: .today())
        page.addSections(from: catalog, setup)
        let calendar = page.children.lazy.compactMap { $0 as? CalendarSection }.first
        calendar?.delegate = page
        if setup.context.day != page.date {
            if let calendar { calendar.select(setup.context.day) } else { page.reloadDay(with: setup.context.day) }
        }
        return page
    }
}
