import Foundation
import HTTPServer
import SectionalTesting
import Testing

@testable import FeedApp

@Suite("Streamed pages")
struct StreamingPageTests {
    @Test(
        "A streamed page is byte for byte the page sent whole, but for the placeholders of cards it waited for",
        arguments: [
            "/feed", "/feed?sections=credit-score,balances", "/feed?add=recent-activity&add=checkup", "/feed?sections=",
            "/feed?sections=checkup&checkup=emergency-fund:3-5&checkup=retirement:no&checkup=card-balance:full",
            "/day?date=2026-11-03", "/day?date=2024-02-29&remove=calendar",
        ])
    func streamedEqualsWhole(target: String) async throws {
        let app = try await AppHarness(feedStore: ControlledFeedStore(delays: ["alerts": .milliseconds(30), "balances": .milliseconds(10)]))
        let streamed = try await app.answer(target)
        guard case .stream = streamed.body else {
            Issue.record("\(target) was not streamed")
            return
        }
        let whole = try await app.get(target + (target.contains("?") ? "&" : "?") + "stream=0")
        #expect(whole.bodyBytes.count > 0)
        #expect(try await app.get(target).bodyText.withoutStreamPlaceholders == whole.bodyText)
    }

    @Test("?stream=0, --no-stream and HEAD send the page whole; a bad stream value is a 400")
    func wholeWhenAsked() async throws {
        let app = try await AppHarness()
        #expect(try await app.answer("/feed?stream=0").bodyBytes.count > 0)
        #expect(try await app.answer("/feed", method: .head).bodyBytes.count > 0)
        let noStream = try await AppHarness(settings: AppSettings(sectionTimeout: .seconds(30), streaming: false))
        #expect(try await noStream.answer("/feed").bodyBytes.count > 0)
        let bad = try await app.get("/feed?stream=sometimes")
        #expect(bad.status == .badRequest)
        #expect(bad.bodyText.contains("stream=0"))
    }

    @Test("Out of order: cards arrive as they finish, into slots laid out in page order")
    func outOfOrder() async throws {
        let store = ControlledFeedStore(delays: ["balances": .milliseconds(150)])
        let app = try await AppHarness(feedStore: store)
        let body = try await app.get("/feed?stream=ooo").bodyText
        let slots = body.matches(of: /<slot name="([a-z-]+)">/).map { String($0.output.1) }
        #expect(slots == ["stack-heading", "balances", "alerts", "credit-score"], "the page's heading first, then its cards")
        #expect(body.contains(#"<template shadowrootmode="open">"#))
        let cards = body.matches(of: /data-section="([a-z-]+)"[^>]*slot="([a-z-]+)"/).map { String($0.output.1) }
        #expect(cards.last == "balances", "the slow card comes last: \(cards)")
        #expect(Set(cards) == ["balances", "alerts", "credit-score"])
        #expect(!body.contains("<script>"), "no inline script is needed")
    }
}

@Suite("Slow and failing sections")
struct SlowSectionTests {
    @Test("A page's sections load at once, so it takes the slowest one's time, not their sum")
    func sectionsLoadAtOnce() async throws {
        let sections: Set = ["balances", "alerts", "credit-score"]
        let store = ControlledFeedStore(gated: sections)
        let app = try await AppHarness(feedStore: store, settings: AppSettings(sectionTimeout: .seconds(30)))
        async let page = app.get("/feed?stream=0")
        // Each load waits at the gate: one after another, no second would start before the first went on.
        var waited = 0
        while store.runningLoads < sections.count && waited < 500 {
            try await Task.sleep(for: .milliseconds(10))
            waited += 1
        }
        #expect(store.runningLoads == sections.count, "loads running together")
        store.gate.open()
        let response = try await page
        #expect(response.status == .ok)
        #expect(response.headers["Sectional-Degraded"] == nil, "every section loaded")
        for id in sections { #expect(response.bodyText.contains(#"data-section="\#(id)""#), "\(id)") }
    }

    @Test("A hanging section is cut at its deadline; its siblings are intact; the page says it degraded")
    func hangingSectionIsCut() async throws {
        let store = ControlledFeedStore(gated: ["credit-score"])
        let clock = TestClock()
        let app = try await AppHarness(feedStore: store, settings: AppSettings(sectionTimeout: .milliseconds(500)), clock: clock)
        /// Each page waits for its deadline on the test clock. Time moves
        /// once the deadline watch sleeps and every card has started, the
        /// hanging one alone still running: moved before a card started,
        /// it would give that card its whole deadline from then, and cut
        /// one that had not finished.
        let cards = 3  // balances, alerts, credit-score: each page and the description load them all
        func get(_ target: String) async throws -> TestResponse {
            let startedBefore = store.startedLoads
            async let response = app.get(target)
            while clock.sleeperCount < 1 || store.startedLoads < startedBefore + cards || store.runningLoads > 1 { await Task.yield() }
            clock.advance(by: .milliseconds(500))
            return try await response
        }
        let response = try await get("/feed?stream=0")
        #expect(response.status == .ok)
        #expect(response.headers["Sectional-Degraded"] == "credit-score")
        #expect(response.bodyText.contains("Credit score could not be loaded right now."))
        #expect(response.bodyText.contains(#"data-section="credit-score" aria-labelledby="credit-score-title" data-live="" data-load="timed-out""#))
        #expect(response.bodyText.contains("Everyday Checking"))
        #expect(response.bodyText.contains("Payment due tomorrow"))
        #expect(app.logLines.contains { $0.contains("credit-score timed out") })

        let streamed = try await get("/feed")
        #expect(streamed.bodyText.withoutStreamPlaceholders == response.bodyText)

        let json = try JSONDecoder().decode(DescriptionWithStatus.self, from: Data(try await get("/api/feed/sections").bodyBytes))
        #expect(json.sections.map(\.status) == ["ok", "ok", "timed-out"])
    }

    @Test("A throwing section shows its fallback and is reported as failed")
    func throwingSection() async throws {
        let app = try await AppHarness(settings: AppSettings(sectionTimeout: .seconds(30), simulatedFaults: ["alerts": .error]))
        let response = try await app.get("/feed?stream=0")
        #expect(response.headers["Sectional-Degraded"] == "alerts")
        #expect(response.bodyText.contains("Alerts could not be loaded right now."))
        let json = try JSONDecoder().decode(DescriptionWithStatus.self, from: Data(try await app.get("/api/feed/sections").bodyBytes))
        #expect(json.sections.map(\.status) == ["ok", "failed", "ok"])
    }

    @Test("Whole pages carry Server-Timing: load and render time for each section")
    func serverTiming() async throws {
        let response = try await AppHarness().get("/feed?stream=0")
        let timing = try #require(response.headers["Server-Timing"])
        for id in ["balances", "alerts", "credit-score"] {
            #expect(timing.contains("load-\(id);dur="))
            #expect(timing.contains("render-\(id);dur="))
        }
        #expect(response.headers["Sectional-Degraded"] == nil)
    }
}

struct DescriptionWithStatus: Decodable {
    struct Section: Decodable { var id: String; var status: String }
    var sections: [Section]
}
