import Sectional
import SectionalSecurity
import SectionalTesting
import Testing

@testable import FeedApp

@Suite("The day page")
struct DayPageTests {
    let app: AppHarness
    init() async throws { app = try await AppHarness() }

    @Test("GET /day shows calendar, summary, sleep and workout for today (UTC)")
    func today() async throws {
        let response = try await app.get("/day")
        #expect(response.status == .ok)
        #expect(response.sectionIDs == ["calendar", "summary", "sleep", "workout"])
        #expect(response.bodyText.contains(#"datetime="\#(Day.today())""#))
    }

    @Test("The site header marks the page shown as current, and only that one", arguments: ["feed", "day"])
    func siteHeaderMarksThePageShown(page: String) async throws {
        let body = try await app.get("/" + page).bodyText
        let current = body.matches(of: /<a href="\/(\w+)" aria-current="page">/).map { String($0.output.1) }
        #expect(current == [page])
        #expect(body.contains(#"<a href="/\#(page == "feed" ? "day" : "feed")">"#))
    }

    @Test("The calendar is a week strip, Monday to Sunday, with the chosen day current")
    func calendar() async throws {
        let body = try await app.get("/day?date=2026-11-03").bodyText
        let days = body.matches(of: /<a href="\/day\?date=(\d{4}-\d\d-\d\d)"/).map { String($0.output.1) }
        #expect(days == ["2026-11-02", "2026-11-03", "2026-11-04", "2026-11-05", "2026-11-06", "2026-11-07", "2026-11-08"])
        #expect(body.contains(#"<a href="/day?date=2026-11-03" aria-current="date" class="selected">"#))
        #expect(body.contains(#"href="/day?date=2026-10-27" aria-label="Previous week""#))
        #expect(body.contains("Tuesday, November 3, 2026"))
    }

    @Test("Choosing a day reloads every section for that date")
    func everySectionFollowsTheDate() async throws {
        let first = try await app.get("/day?date=2026-11-03&sections=summary,sleep,workout").bodyText
        let second = try await app.get("/day?date=2026-11-04&sections=summary,sleep,workout").bodyText
        let again = try await app.get("/day?date=2026-11-03&sections=summary,sleep,workout").bodyText
        #expect(first == again)
        for id in ["summary", "sleep", "workout"] {
            let day3 = try await app.get("/day/sections/\(id)?date=2026-11-03").bodyText
            let day9 = try await app.get("/day/sections/\(id)?date=2026-11-09").bodyText
            #expect(day3 != day9, "section \(id) shows the same data for two dates")
        }
        #expect(first != second)
    }

    @Test("Day links keep the composition; composition links keep the date")
    func linksKeepContext() async throws {
        let response = try await app.get("/day?date=2026-11-03&sections=calendar,sleep")
        #expect(response.bodyText.contains(#"href="/day?date=2026-11-04&amp;sections=calendar,sleep""#))
        #expect(response.actionLinks("remove") == ["/day?date=2026-11-03&sections=sleep", "/day?date=2026-11-03&sections=calendar"])
        #expect(response.actionLinks("add").contains("/day?date=2026-11-03&sections=calendar,sleep,summary"))
    }

    @Test("The page's children all show the date the calendar chose", arguments: ["2024-02-29", "2026-01-01", "2030-12-31"])
    func reloadThroughTheParent(date: String) throws {
        let day = try #require(Day(iso: date))
        let data = try AppData.memory()
        let formGuard = FormGuard(key: data.formKey)
        let page = DayPage(store: data.day, formGuard: formGuard)
        let context = DayPage.Context(day: day, user: data.users[0].id)
        let setup = SectionSetup(context: context, plan: CompositionPlan(catalog: page.catalog.sections), address: page.address(context))
        let controller = try #require(page.makePage(setup) as? DayPageController)
        #expect(controller.date == day)
        for child in controller.children {
            let section = try #require(child as? DaySection)
            #expect(section.date == day)
        }
    }

    @Test(
        "At the calendar's ends every link leads to a date the page accepts",
        arguments: [
            "0001-01-01", "0001-01-03", "0001-01-08", "9999-12-31", "9999-12-27", "9999-12-24", "2026-11-03",
        ])
    func calendarLinksStayInRange(date: String) async throws {
        let page = try await app.get("/day?date=\(date)")
        #expect(page.status == .ok)
        let links = page.bodyText.matches(of: /href="(\/day\?date=[^"&]*)[^"]*"/).map { String($0.output.1) }
        #expect(!links.isEmpty)
        for link in Set(links) {
            #expect(try await app.get(link).status == .ok, "\(date) links to \(link)")
        }
    }

    @Test("The first and last days show a week step only where there is a week to go to")
    func weekStepsAtTheEnds() async throws {
        let first = try await app.get("/day?date=0001-01-01").bodyText
        #expect(!first.contains(#"aria-label="Previous week""#))
        #expect(first.contains(#"aria-label="Next week""#))
        let last = try await app.get("/day?date=9999-12-31").bodyText
        #expect(!last.contains(#"aria-label="Next week""#))
        #expect(last.contains(#"href="/day?date=9999-12-24""#))
        #expect(
            last.contains(#"<span class="day-outside"><span class="weekday">Sat</span>"#), "the days after 9999-12-31 in its week are shown unlinked")
    }
}

extension DayPageTests {
    @Test("Month steps go to the same day a month away, or the month's last day; none past the calendar's ends")
    func monthSteps() async throws {
        let page = try await app.get("/day?date=2026-03-31&sections=calendar,sleep").bodyText
        #expect(page.contains(#"href="/day?date=2026-02-28&amp;sections=calendar,sleep" aria-label="Previous month, February 2026">‹ February</a>"#))
        #expect(page.contains(#"href="/day?date=2026-04-30&amp;sections=calendar,sleep" aria-label="Next month, April 2026">April ›</a>"#))
        let last = try await app.get("/day?date=9999-12-15").bodyText
        #expect(!last.contains("Next month"))
        #expect(last.contains(#"aria-label="Previous month, November 9999""#))
    }

    @Test("A form goes to any date, keeping the composition; what it sends, the page accepts")
    func datePicker() async throws {
        let page = try await app.get("/day?date=2026-11-03&sections=calendar,sleep").bodyText
        #expect(page.contains(#"<form class="date-picker" method="get" action="/day"><input type="hidden" name="sections" value="calendar,sleep">"#))
        #expect(page.contains(#"<input type="date" id="calendar-date-input" name="date" value="2026-11-03" min="0001-01-01" max="9999-12-31">"#))
        // As the browser submits it: the hidden field, then the date.
        let picked = try await app.get("/day?sections=calendar,sleep&date=2031-07-14").bodyText
        #expect(picked.contains("Monday, July 14, 2031"))
        #expect(try await app.get("/day?sections=calendar,sleep&date=2031-7-14").status == .badRequest)
    }
}

@Suite("Dates")
struct DayTests {
    @Test(
        "A month on or back keeps the day, or takes the month's last",
        arguments: [
            (Day(2024, 1, 31), 1, Day(2024, 2, 29)), (Day(2026, 3, 31), -1, Day(2026, 2, 28)), (Day(2026, 12, 15), 1, Day(2027, 1, 15)),
            (Day(2026, 1, 10), -1, Day(2025, 12, 10)), (Day(2026, 5, 31), 13, Day(2027, 6, 30)), (Day(2000, 2, 29), -12, Day(1999, 2, 28)),
        ])
    func addingMonths(from: Day, months: Int, to: Day) {
        #expect(from.adding(months: months) == to)
    }

    @Test(
        "Parsing accepts exactly YYYY-MM-DD of a real date",
        arguments: [
            ("2026-11-03", true), ("2024-02-29", true), ("2025-02-29", false), ("1900-02-29", false), ("2000-02-29", true),
            ("2026-04-31", false), ("2026-4-30", false), ("2026-04-30 ", false), ("٢٠٢٦-١١-٠٣", false),
        ])
    func parse(text: String, valid: Bool) {
        #expect((Day(iso: text) != nil) == valid)
        if valid { #expect(Day(iso: text)?.description == text) }
    }

    @Test("Days convert to and from days since 1970 and know their weekday")
    func arithmetic() {
        #expect(Day(1970, 1, 1).daysSinceEpoch == 0)
        #expect(Day(daysSinceEpoch: 20_395) == Day(2025, 11, 3))
        #expect(Day(2026, 11, 3).weekdayName == "Tuesday")
        #expect(Day(2026, 12, 31).adding(days: 1) == Day(2027, 1, 1))
        #expect(Day(2024, 3, 1).adding(days: -1) == Day(2024, 2, 29))
    }

    @Test("Every date from year 1 to 9999 prints as YYYY-MM-DD and parses back to itself")
    func printing() {
        // A step prime to every month length, so each day of the month and each month come round.
        var day = Day(1, 1, 1)
        while day <= Day(9999, 12, 31) {
            let text = day.description
            #expect(text.utf8.count == 10 && Day(iso: text) == day, "\(text)")
            #expect(text == [padded(day.year, 4), padded(day.month, 2), padded(day.day, 2)].joined(separator: "-"))
            day = day.adding(days: 997)
        }
        #expect(Day(2026, 11, 3).shortMonthName == "Nov")
    }

    private func padded(_ number: Int, _ width: Int) -> String {
        String(repeating: "0", count: max(0, width - String(number).count)) + String(number)
    }

    @Test("Stepping past the supported years never traps; the result does not parse back")
    func edgesOfTime() {
        let after = Day(9999, 12, 31).adding(days: 7)
        #expect(after.description == "10000-01-07")
        #expect(Day(iso: after.description) == nil)
        #expect(Day(1, 1, 1).adding(days: -7).description == "0000-12-25")
    }
}
