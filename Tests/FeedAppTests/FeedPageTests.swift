import HTTPServer
import Sectional
import SectionalAccounts
import SectionalTesting
import Testing

@testable import FeedApp

@Suite("The finance feed")
struct FeedPageTests {
    let app: AppHarness
    init() async throws { app = try await AppHarness() }

    @Test("GET /feed stacks balances, alerts and credit score, in that order")
    func defaultFeed() async throws {
        let response = try await app.get("/feed")
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == "text/html; charset=utf-8")
        #expect(response.sectionIDs == ["balances", "alerts", "credit-score"])
        #expect(response.bodyText.hasPrefix("<!DOCTYPE html>"))
        #expect(response.bodyText.contains(#"<link rel="canonical" href="/feed">"#))
    }

    @Test(
        "The query drives the composition",
        arguments: [
            ("/feed?sections=credit-score,balances", ["credit-score", "balances"]),
            ("/feed?sections=credit-score&sections=balances", ["credit-score", "balances"]),
            ("/feed?sections=alerts,alerts,balances,alerts", ["alerts", "balances"]),
            ("/feed?remove=alerts", ["balances", "credit-score"]),
            ("/feed?remove=recent-activity", ["balances", "alerts", "credit-score"]),
            ("/feed?add=recent-activity", ["balances", "alerts", "credit-score", "recent-activity"]),
            ("/feed?add=balances", ["balances", "alerts", "credit-score"]),
            ("/feed?sections=checkup&add=balances", ["checkup", "balances"]),
            ("/feed?add=checkup&remove=balances,alerts", ["credit-score", "checkup"]),
            ("/feed?sections=", []),
            ("/feed?utm_source=mail", ["balances", "alerts", "credit-score"]),
        ])
    func composition(target: String, expected: [SectionID]) async throws {
        let response = try await app.get(target)
        #expect(response.status == .ok)
        #expect(response.sectionIDs == expected)
    }

    @Test("Every shown section has a remove link and every absent one an add link, as canonical URLs")
    func addAndRemoveLinks() async throws {
        let response = try await app.get("/feed?sections=alerts,balances")
        #expect(response.actionLinks("remove") == ["/feed?sections=balances", "/feed?sections=alerts"])
        #expect(
            response.actionLinks("add") == [
                "/feed?sections=alerts,balances,credit-score",
                "/feed?sections=alerts,balances,recent-activity",
                "/feed?sections=alerts,balances,notices",
                "/feed?sections=alerts,balances,checkup",
            ])
        #expect(response.bodyText.contains(#"<link rel="canonical" href="/feed?sections=alerts,balances">"#))
    }

    @Test("Following a link gives the page it promised")
    func linksLeadWhereTheySay() async throws {
        let page = try await app.get("/feed")
        for link in page.actionLinks("add") + page.actionLinks("remove") {
            let next = try await app.get(link)
            #expect(next.status == .ok)
            #expect(next.bodyText.contains(#"<link rel="canonical" href="\#(link)">"#.replacingOccurrences(of: "&", with: "&amp;")))
        }
    }

    @Test("An empty page says so and offers every section")
    func emptyPage() async throws {
        let response = try await app.get("/feed?sections=")
        #expect(response.bodyText.contains("stack-empty"))
        #expect(response.actionLinks("add").count == 6)
    }

    @Test("Balances show each account, a marked negative balance and the total")
    func balancesContent() async throws {
        let body = try await app.get("/feed?sections=balances").bodyText
        #expect(body.contains("Everyday Checking"))
        #expect(body.contains("•••• 4821"))
        #expect(body.contains(#"<td class="amount negative">−$1,842.33"#))
        #expect(body.contains("$40,902.94"))
    }

    @Test("Data with markup characters is escaped, never interpreted")
    func markupIsEscaped() async throws {
        var user = SeedData.users[0]
        user.accounts[2].name = "Travel Rewards <Visa>"
        user.accounts[3].name = #"Joint "House" Fund & Co"#
        user.alerts[0].title = "<script>alert(1)</script>"
        user.transactions[2].merchant = "Payroll — ACME <Corp>"
        let marked = try await AppHarness(feedStore: SeedFeedStore(users: [user]))
        let body = try await marked.get("/feed?sections=balances,alerts,recent-activity").bodyText
        #expect(body.contains("Travel Rewards &lt;Visa&gt;"))
        #expect(body.contains("Joint &quot;House&quot; Fund &amp; Co"))
        #expect(body.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(body.contains("Payroll — ACME &lt;Corp&gt;"))
        #expect(body.contains("Tom &amp; Jerry&#39;s Electronics"))
        #expect(!body.contains("<Visa>") && !body.contains("<Corp>") && !body.contains("<script>alert"))
    }

    @Test("Alerts come most severe first")
    func alertsOrder() async throws {
        let body = try await app.get("/feed?sections=alerts").bodyText
        let severities = body.matches(of: /class="alert alert-([a-z]+)"/).map { String($0.output.1) }
        #expect(severities == ["critical", "warning", "info"])
    }

    @Test("Equally severe alerts keep the store's order, below the more severe")
    func equallySevereAlertsKeepTheirOrder() async throws {
        var user = SeedData.users[0]
        user.alerts = [
            (.warning, "First warning", "a"), (.info, "A note", "b"), (.warning, "Second warning", "c"), (.critical, "Alarm", "d"),
            (.warning, "Third warning", "e"),
        ]
        let app = try await AppHarness(feedStore: SeedFeedStore(users: [user] + SeedData.users.dropFirst()))
        let body = try await app.get("/feed?sections=alerts").bodyText
        let titles = body.matches(of: /<strong>([^<]*)<\/strong>/).map { String($0.output.1) }
        #expect(titles == ["Alarm", "First warning", "Second warning", "Third warning", "A note"])
    }

    @Test("The credit score shows its band and a 12-month chart")
    func creditScore() async throws {
        let body = try await app.get("/feed?sections=credit-score").bodyText
        #expect(body.contains(#"<span class="credit-score">742</span>"#))
        #expect(body.contains("Very good"))
        let points = try #require(body.firstMatch(of: /points="([^"]*)"/)).output.1
        #expect(points.split(separator: " ").count == 12)
    }
}

@Suite("Headings")
struct HeadingTests {
    @Test(
        "Each page has one h1, first in its stack; error pages have theirs",
        arguments: [
            ("/feed", "Your feed"), ("/feed?sections=", "Your feed"), ("/feed?stream=ooo", "Your feed"),
            ("/day?date=2026-11-03", "Your day"), ("/feed?sections=nope", "400 Bad Request"),
        ])
    func oneHeadingOne(target: String, heading: String) async throws {
        let page = try await AppHarness().get(target).bodyText
        #expect(page.matches(of: /<h1[ >]/).count == 1, "\(target)")
        #expect(page.contains(">\(heading)</h1>"), "\(target)")
    }
}

@Suite("Out of order, the heading stays on top")
struct OutOfOrderHeadingTests {
    @Test("The slots layout gives the page's heading a slot before every card's")
    func headingSlotComesFirst() async throws {
        let page = try await AppHarness().get("/feed?stream=ooo").bodyText
        #expect(page.contains(#"<h1 class="page-title" slot="stack-heading">Your feed</h1>"#))
        let template = try #require(page.firstRange(of: #"<template shadowrootmode="open">"#))
        let headingSlot = try #require(page.range(of: #"<slot name="stack-heading"></slot>"#, range: template.upperBound..<page.endIndex))
        let firstCardSlot = try #require(page.range(of: #"<slot name="balances">"#, range: template.upperBound..<page.endIndex))
        #expect(headingSlot.lowerBound < firstCardSlot.lowerBound)
        let inOrder = try await AppHarness().get("/feed").bodyText
        #expect(inOrder.contains(#"<h1 class="page-title">Your feed</h1>"#), "in page order the heading needs no slot")
    }
}

@Suite("The demo data")
struct DemoDataTests {
    @Test("Its dates count from the day it is seeded: yesterday's purchases, last month's statement, a payment due tomorrow")
    func relativeDates() async throws {
        let seeded = SeedData.seededOn
        #expect(abs(seeded.daysSinceEpoch - Day.today().daysSinceEpoch) <= 1, "seeded today (give or take a midnight), not on a fixed date")
        let data = try AppData.memory()
        let newest = try await data.feed.recentTransactions(of: UserID(1), limit: 1)
        #expect(newest.first?.date == seeded.adding(days: -1))
        let tomorrow = seeded.adding(days: 1)
        let alerts = try await data.feed.alerts(of: UserID(1)).map(\.text)
        #expect(alerts.contains { $0.hasSuffix("is due on \(tomorrow.shortMonthName) \(tomorrow.day).") }, "\(alerts)")
        #expect(alerts.contains("Your \(seeded.adding(months: -1).monthName) statement for Everyday Checking is available."))
    }
}
