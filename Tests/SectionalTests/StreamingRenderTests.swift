import SectionalTesting
import Synchronization
import Testing

@testable import Sectional

/// One render path: a page streamed in page order sends the bytes of the
/// page sent whole, with a placeholder before each card it waited for; out
/// of order, a slot per section in page order.
/// Delays run on a test clock, so nothing here sleeps.
@Suite("Streamed rendering", .timeLimit(.minutes(1)))
struct StreamingRenderTests {
    private static let head = DocumentHead(language: "en", stylesheets: ["/styles.css"])

    /// A page of text sections; those in `delays` wait that long on `clock` for their text.
    private func document(_ ids: [SectionID], delays: [SectionID: Duration] = [:], clock: TestClock = TestClock()) -> PageDocument {
        let page = StackPageController(id: "feed", title: "Feed")
        page.plan = try? CompositionPlan(catalog: feedCatalog, query: query(("sections", ids.map(\.rawValue).joined(separator: ","))))
        page.address = PageAddress(path: "/feed")
        for id in ids {
            if let delay = delays[id] {
                page.addChild(
                    TextSection(id: id, title: feedCatalog.title(of: id)) {
                        try await clock.sleep(for: delay)
                        return "content of \(id)"
                    })
            } else {
                page.addChild(TextSection(id: id, title: feedCatalog.title(of: id), text: "content of \(id)"))
            }
        }
        return PageDocument(title: "Feed", head: Self.head, root: page, page: page)
    }

    private func whole(_ document: PageDocument) async -> String {
        var html = HTMLWriter()
        _ = await document.renderWhole(loading: LoadOptions(timeout: .seconds(30)), into: &html)
        return html.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    /// Every chunk sent, in order; each is also handed to `onChunk` as it goes out.
    private func chunks(
        _ document: PageDocument, _ order: CardOrder = .pageOrder, clock: TestClock = TestClock(),
        onChunk: @Sendable (String) -> Void = { _ in }
    ) async -> [String] {
        let sent = Mutex<[String]>([])
        _ = await document.stream(order, loading: LoadOptions(timeout: .seconds(30), clock: clock)) { bytes in
            let chunk = String(decoding: bytes, as: UTF8.self)
            sent.withLock { $0.append(chunk) }
            onChunk(chunk)
        }
        return sent.withLock { $0 }
    }

    @Test(arguments: [[], ["alerts"], ["credit-score", "balances", "checkup"]] as [[SectionID]])
    func streamedInPageOrderIsTheWholePage(_ ids: [SectionID]) async {
        let streamed = await chunks(document(ids)).joined()
        #expect(streamed == (await whole(document(ids))))
        #expect(streamed.hasSuffix("</body></html>"))
    }

    @Test func aSlowSectionHoldsBackOnlyWhatFollowsIt() async {
        let clock = TestClock()
        let ids: [SectionID] = ["balances", "alerts", "credit-score"]
        let document = document(ids, delays: ["alerts": .seconds(2)], clock: clock)
        async let streamed = chunks(document, clock: clock)
        await clock.advance(by: .seconds(2), whenSleepersReach: 2)  // the slow load and the deadline watch
        let sent = await streamed

        let first = sent[0]
        #expect(first.contains("content of balances"), "the card above the slow one goes out at once")
        #expect(!first.contains("content of alerts") && !first.contains("content of credit-score"))
        #expect(first.hasSuffix(#"<div class="section-placeholder" aria-busy="true">Loading Alerts…</div>"#), "then a placeholder where it will go")
        #expect(sent[1].hasPrefix(#"<section class="section" id="section-alerts""#), "its card follows the placeholder at once")
        #expect(sent.joined().withoutStreamPlaceholders == (await whole(self.document(ids))))
    }

    @Test func eachCardWaitedForHasOnePlaceholderBeforeIt() async {
        let clock = TestClock()
        let ids: [SectionID] = ["balances", "alerts", "credit-score"]
        let document = document(ids, delays: ["alerts": .seconds(1), "credit-score": .seconds(2)], clock: clock)
        let alertsSent = Gate()
        async let streamed = chunks(document, clock: clock) { if $0.contains("content of alerts") { alertsSent.open() } }
        await clock.advance(by: .seconds(1), whenSleepersReach: 3)  // both slow loads and the deadline watch
        // Credit score sleeps on until alerts' card is out: a placeholder goes before it only if it is not ready then.
        await alertsSent.wait()
        await clock.advance(by: .seconds(1), whenSleepersReach: 2)
        let all = await streamed.joined()

        let placeholders = all.matches(of: /Loading ([A-Za-z ]+)…<\/div><section class="section" id="section-([a-z-]+)"/).map {
            [String($0.output.1), String($0.output.2)]
        }
        #expect(placeholders == [["Alerts", "alerts"], ["Credit score", "credit-score"]])
        #expect(all.withoutStreamPlaceholders == (await whole(self.document(ids))))
    }

    @Test func aPageWhoseCardsAreAllReadyHasNoPlaceholder() async {
        let sent = await chunks(document(["balances", "alerts"])).joined()
        #expect(!sent.contains("section-placeholder"))
    }

    @Test func outOfOrderCardsFillSlotsInPageOrder() async throws {
        let clock = TestClock()
        let ids: [SectionID] = ["credit-score", "balances"]
        let document = document(ids, delays: ["credit-score": .seconds(1)], clock: clock)
        document.page.descendant(withID: "balances")?.title = "<Balances>"
        async let streamed = chunks(document, .asFinished, clock: clock)
        await clock.advance(by: .seconds(1), whenSleepersReach: 2)  // the slow load and the deadline watch
        let sent = await streamed

        let template = try #require(slice(of: sent[0], from: #"<template shadowrootmode="open">"#, through: "</template>"))
        #expect(template.contains(#"<link rel="stylesheet" href="/styles.css">"#))
        let credit = try #require(template.firstRange(of: #"<slot name="credit-score">"#))
        let balances = try #require(template.firstRange(of: #"<slot name="balances">"#))
        #expect(credit.lowerBound < balances.lowerBound)
        #expect(template.contains("Loading &lt;Balances&gt;…"))
        #expect(template.hasSuffix("<slot></slot></template>"), "a last slot for cards without one")
        #expect(
            sent[0].contains(#"data-section="balances" aria-labelledby="balances-title" slot="balances">"#),
            "the ready card goes out before the slow one, which is first on the page")
        #expect(!sent[0].contains("content of credit-score"))
        let all = sent.joined()
        #expect(all.contains(#"slot="credit-score">"#))
        #expect(all.hasSuffix("</body></html>"))
    }

    @Test func aPlainCardHasNoSlot() {
        let page = document(["alerts"]).page
        var card = HTMLWriter()
        page.renderCard(page.children[0], into: &card)
        let html = card.withBytes { String(decoding: $0, as: UTF8.self) }
        #expect(html.hasPrefix(#"<section class="section" id="section-alerts" data-section="alerts" aria-labelledby="alerts-title">"#))
    }

    @Test func cardsThatThePagesOwnLoadAddsAreStreamedToo() async {
        /// A page that learns its sections from its own load, as a page built from data would.
        final class DataDrivenPage: StackPageController {
            let clock: TestClock?
            init(waitingOn clock: TestClock?) {
                self.clock = clock
                super.init(id: "feed", title: "Feed")
            }
            override func makeLoad() -> SectionLoad? {
                SectionLoad({ [clock] in
                    try await clock?.sleep(for: .milliseconds(10))
                    return ["alerts", "balances"] as [SectionID]
                }) { ids in
                    for id in ids { self.addChild(TextSection(id: id, text: "content of \(id)")) }
                }
            }
        }
        let clock = TestClock()
        let page = DataDrivenPage(waitingOn: clock)
        let document = PageDocument(title: "Feed", head: Self.head, root: page, page: page)
        async let streamed = chunks(document, clock: clock)
        await clock.advance(by: .milliseconds(10), whenSleepersReach: 2)
        let sent = await streamed.joined()

        let immediate = DataDrivenPage(waitingOn: nil)
        let whole = await self.whole(PageDocument(title: "Feed", head: Self.head, root: immediate, page: immediate))
        #expect(sent.contains("content of alerts") && sent.contains("content of balances"))
        #expect(sent.withoutStreamPlaceholders == whole)
    }

    @Test func whatSitsBesideThePageIsLoadedBeforeAnythingIsSent() async {
        // A shell holding a banner that loads the user's name, beside the page.
        let clock = TestClock()
        func document(bannerClock: TestClock?) -> PageDocument {
            let shell = SectionController(id: "shell", title: "Shell")
            shell.addChild(
                TextSection(id: "banner") {
                    try await bannerClock?.sleep(for: .milliseconds(200))
                    return "Hello, Ada"
                })
            let page = StackPageController(id: "feed", title: "Feed")
            page.addChild(TextSection(id: "alerts", text: "content of alerts"))
            shell.addChild(page)
            return PageDocument(title: "Feed", head: Self.head, root: shell, page: page)
        }
        async let streamed = chunks(document(bannerClock: clock), clock: clock)
        await clock.advance(by: .milliseconds(200), whenSleepersReach: 2)
        let sent = await streamed
        #expect(sent.first?.contains("Hello, Ada") == true, "the banner's data, not its empty state, went out first")
        #expect(sent.joined() == (await whole(document(bannerClock: nil))))
    }
}
