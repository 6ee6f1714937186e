import Testing

@testable import Sectional

/// The stacked page: children in order, each in a wrapper carrying its id,
/// an empty state, and remove and add links built from the plan.
@Suite("StackPageController")
struct StackPageControllerTests {
    /// A feed page for `plan`, with one text section per shown id.
    private func feedPage(_ plan: CompositionPlan, address: PageAddress = PageAddress(path: "/feed")) -> StackPageController {
        let page = StackPageController(id: "feed", title: "Feed")
        page.plan = plan
        page.address = address
        for id in plan.sectionIDs {
            page.addChild(TextSection(id: id, title: feedCatalog.title(of: id), text: "content of \(id)"))
        }
        return page
    }

    @Test func childrenRenderInOrderInsideWrappersCarryingTheirIDs() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "credit-score,balances,alerts")))
        let html = feedPage(plan).render()

        let starts = ["credit-score", "balances", "alerts"].map { html.firstRange(of: #"id="section-\#($0)""#)?.lowerBound }
        #expect(starts.allSatisfy { $0 != nil })
        let positions = starts.compactMap { $0 }
        #expect(positions == positions.sorted(), "sections appear top to bottom in plan order")

        for id in plan.sectionIDs {
            let wrapper = try #require(
                slice(of: html, from: "<section", through: "</section>").flatMap { _ in
                    slice(of: html, from: #"<section class="section" id="section-\#(id)""#, through: "</section>")
                })
            #expect(wrapper.contains(#"data-section="\#(id)""#))
            #expect(wrapper.contains(#"<h2 id="\#(id)-title">\#(feedCatalog.title(of: id)!)</h2>"#))
            #expect(wrapper.contains(#"aria-labelledby="\#(id)-title""#))
            #expect(wrapper.contains(#"<div class="section-body"><p class="text">content of \#(id)</p></div>"#))
        }
        #expect(occurrences(of: "<section ", in: html) == 3)
        #expect(!html.contains("stack-empty"))
    }

    @Test func anEmptyStackShowsTheEmptyState() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "")))
        let page = feedPage(plan)
        page.emptyStateMessage = "Nothing <here>"
        let html = page.render()

        #expect(html.contains(#"<div class="stack-empty" role="status"><p>Nothing &lt;here&gt;</p></div>"#))
        #expect(!html.contains("<section"))
        for id in feedCatalog.ids {
            #expect(html.contains(#"data-section-action="add" data-section="\#(id)""#), "every section can be added back")
        }
    }

    @Test func removeLinksUseCanonicalURLs() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("add", "checkup")))
        let html = feedPage(plan).render()

        let expected = [
            "balances": "/feed?sections=alerts,credit-score,checkup",
            "alerts": "/feed?sections=balances,credit-score,checkup",
            "credit-score": "/feed?sections=balances,alerts,checkup",
            // Removing the added section gives the default list: no query at all.
            "checkup": "/feed",
        ]
        for (id, url) in expected {
            let wrapper = slice(of: html, from: #"id="section-\#(id)""#, through: "</section>")
            #expect(
                wrapper?.contains(#"<a class="section-remove" href="\#(url)" data-section-action="remove""#) == true,
                "remove link of \(id)")
        }
        #expect(occurrences(of: #"data-section-action="remove""#, in: html) == 4)
    }

    @Test func addLinksOfferEachAbsentSectionInCatalogOrder() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("remove", "alerts")))
        let html = feedPage(plan).render()
        let picker = try #require(slice(of: html, from: "<nav", through: "</nav>"))

        #expect(
            picker.contains(#"<a href="/feed?sections=balances,credit-score,alerts" data-section-action="add" data-section="alerts">+ Alerts</a>"#))
        #expect(
            picker.contains(
                #"<a href="/feed?sections=balances,credit-score,recent-activity" data-section-action="add" data-section="recent-activity">+ Recent activity</a>"#
            ))
        #expect(
            picker.contains(
                #"<a href="/feed?sections=balances,credit-score,checkup" data-section-action="add" data-section="checkup">+ Financial check-up</a>"#))
        let order = ["alerts", "recent-activity", "checkup"].compactMap { picker.firstRange(of: #"data-section="\#($0)""#)?.lowerBound }
        #expect(order.count == 3 && order == order.sorted())
        #expect(!picker.contains(#"data-section="balances""#))
    }

    @Test func linksCarryThePageContextEscapedInHTML() throws {
        let address = PageAddress(path: "/day", context: [.init("date", "2026-11-03")])
        let html = feedPage(CompositionPlan(catalog: feedCatalog), address: address).render()

        #expect(html.contains(#"href="/day?date=2026-11-03&amp;sections=alerts,credit-score""#))
        #expect(html.contains(#"href="/day?date=2026-11-03&amp;sections=balances,alerts,credit-score,checkup""#))
        #expect(!html.contains("&sections"), "a raw & never reaches an attribute")
    }

    @Test func everySectionShownMeansNoPicker() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("add", "recent-activity,checkup")))
        let html = feedPage(plan).render()
        #expect(!html.contains("<nav"))
    }

    @Test func withoutAPlanThereAreNoLinks() {
        let page = StackPageController(id: "plain", title: "Plain")
        page.addChild(TextSection(id: "only", text: "x"))
        let html = page.render()
        #expect(html.contains(#"id="section-only""#))
        #expect(!html.contains("data-section-action"))
        #expect(!html.contains("<nav"))
    }

    @Test func hostileTitlesAreEscaped() {
        let page = StackPageController(id: "page", title: "Page")
        page.plan = CompositionPlan(catalog: feedCatalog)
        page.address = PageAddress(path: "/feed")
        page.addChild(TextSection(id: "balances", title: #"<img src=x onerror="alert(1)">"#, text: "x"))
        let html = page.render()
        #expect(!html.contains("<img"))
        #expect(html.contains(#"<h2 id="balances-title">&lt;img src=x onerror=&quot;alert(1)&quot;&gt;</h2>"#))
        #expect(html.contains(#"aria-label="Remove &lt;img src=x onerror=&quot;alert(1)&quot;&gt;""#))
    }

    @Test func aHostileIDIsEscapedEverywhereTheCardWritesIt() {
        let page = StackPageController(id: "page", title: "Page")
        page.layout = .slots(stylesheets: [])
        page.addChild(TextSection(id: #"x"><script>"#, title: "X", text: "x"))
        let html = page.render()
        #expect(!html.contains("<script>"))
        let escaped = "x&quot;&gt;&lt;script&gt;"
        for attribute in [
            #"id="section-\#(escaped)""#, #"data-section="\#(escaped)""#, #"aria-labelledby="\#(escaped)-title""#,
            #"slot="\#(escaped)""#, #"<h2 id="\#(escaped)-title">"#,
        ] {
            #expect(html.contains(attribute), "\(attribute)")
        }
    }

    @Test func liveCardsCarryTheVersionReadBeforeTheLoad() {
        let source = CountingVersions()
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(LiveTextSection(id: "alerts", keys: ["alerts:1"]))
        page.addChild(TextSection(id: "balances", text: "x"))
        // No source: a live card is marked live, with no version.
        #expect(page.render().contains(#"id="section-alerts" data-section="alerts" aria-labelledby="alerts-title" data-live="""#))
        source.version = 3
        page.recordLiveVersions(from: source)
        source.version = 4
        // A section added after the versions were read gets its version when its card is rendered.
        page.addChild(LiveTextSection(id: "late", keys: ["late:1"]))
        let html = page.render()
        #expect(html.contains(#"aria-labelledby="alerts-title" data-live="3">"#), "the version read before the load, not the newer one")
        #expect(html.contains(#"aria-labelledby="late-title" data-live="4">"#))
        #expect(html.contains(#"aria-labelledby="balances-title">"#), "a section that is not live has no version")
    }

    @Test func documentCarriesTitleStylesheetAndCanonicalURL() async throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "alerts")))
        let page = feedPage(plan)
        let document = PageDocument(
            title: "Feed & more", head: DocumentHead(language: "en", stylesheets: ["/styles.css"]),
            canonicalURL: page.address?.url(for: plan), root: page, page: page)
        var writer = HTMLWriter()
        _ = await document.renderWhole(loading: LoadOptions(), into: &writer)
        let html = String(decoding: writer.bytes, as: UTF8.self)

        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<title>Feed &amp; more</title>"))
        #expect(html.contains(#"<link rel="stylesheet" href="/styles.css">"#))
        #expect(html.contains(#"<link rel="canonical" href="/feed?sections=alerts">"#))
        let body = try #require(slice(of: html, from: "<body>", through: "</body>"))
        #expect(body.contains(#"id="section-alerts""#))
    }

    @Test func aWholeRenderTimesEachCardUnlessToldNotTo() async throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "alerts,balances")))
        let page = feedPage(plan)
        let document = PageDocument(title: "Feed", head: DocumentHead(language: "en"), root: page, page: page)
        var timed = HTMLWriter()
        _ = await document.renderWhole(loading: LoadOptions(), into: &timed)
        #expect(page.cardRenderTimes.map(\.id.rawValue) == ["alerts", "balances"])

        let untimedPage = feedPage(plan)
        let untimedDocument = PageDocument(title: "Feed", head: DocumentHead(language: "en"), root: untimedPage, page: untimedPage)
        var untimed = HTMLWriter()
        _ = await untimedDocument.renderWhole(loading: LoadOptions(), timingCards: false, into: &untimed)
        #expect(untimedPage.cardRenderTimes.isEmpty)
        #expect(untimed.bytes == timed.bytes)
    }

    @Test func aCardAloneIsTheFragment() {
        let page = feedPage(CompositionPlan(catalog: feedCatalog))
        let alerts = page.children[1]
        var writer = HTMLWriter()
        page.renderCard(alerts, into: &writer)
        let html = String(decoding: writer.bytes, as: UTF8.self)

        #expect(html.hasPrefix(#"<section class="section" id="section-alerts""#))
        #expect(html.hasSuffix("</section>"))
        #expect(html.contains("content of alerts"))
        #expect(!html.contains("content of balances"))
    }
}

/// A live data version that tests set.
private final class CountingVersions: LiveVersionSource, @unchecked Sendable {
    var version = 0
    func version(of keys: Set<LiveKey>) -> Int { version }
}

/// A section showing text whose data is live under `keys`.
private final class LiveTextSection: SectionController {
    private let keys: Set<LiveKey>

    init(id: SectionID, keys: Set<LiveKey>) {
        self.keys = keys
        super.init(id: id, title: id.rawValue)
    }

    override var liveKeys: Set<LiveKey> { keys }

    override func render(into html: inout HTMLWriter) { html.writeRaw("live") }
}
