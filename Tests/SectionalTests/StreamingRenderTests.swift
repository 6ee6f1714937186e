import Testing
@testable import Sectional

/// A streamed page sends the same bytes as a whole one, in parts; an
/// out-of-order one lays out a slot per section in page order.
@Suite("Streamed rendering")
struct StreamingRenderTests {
    private func page(_ ids: [String]) -> StackPageController {
        let page = StackPageController(id: "feed", title: "Feed")
        page.plan = try? CompositionPlan(catalog: feedCatalog, query: query(("sections", ids.joined(separator: ","))))
        page.address = PageAddress(path: "/feed")
        for id in ids { page.addChild(TextSection(id: id, title: feedCatalog.title(of: id), text: "content of \(id)")) }
        return page
    }

    private func string(_ render: (inout HTMLWriter) -> Void) -> String {
        var writer = HTMLWriter()
        render(&writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [[], ["alerts"], ["credit-score", "balances", "checkup"]])
    func partsMakeTheWholePage(_ ids: [String]) {
        let page = page(ids)
        let streamed = string { html in
            page.renderOpening(into: &html)
            for child in page.children { page.renderSection(child, into: &html) }
            page.renderClosing(into: &html)
        }
        #expect(streamed == page.render())
    }

    @Test func documentPartsMakeTheWholeDocument() {
        let document = HTMLDocument(title: "A & B", stylesheets: ["/styles.css"], canonicalURL: "/feed") { p { "body" } }
        let streamed = string { html in
            HTMLDocument<EmptyHTML>(title: "A & B", stylesheets: ["/styles.css"], canonicalURL: "/feed").renderOpening(into: &html)
            p { "body" }.render(into: &html)
            document.renderClosing(into: &html)
        }
        #expect(streamed == document.render())
        #expect(streamed.hasSuffix("<p>body</p></body></html>"))
    }

    @Test func outOfOrderOpeningHasOneSlotPerSectionInPageOrder() throws {
        let page = page(["credit-score", "balances"])
        page.descendant(withID: "balances")?.title = "<Balances>"
        let html = string { page.renderOutOfOrderOpening(stylesheet: "/styles.css", into: &$0) }

        let template = try #require(slice(of: html, from: #"<template shadowrootmode="open">"#, through: "</template>"))
        #expect(template.contains(#"<link rel="stylesheet" href="/styles.css">"#))
        let credit = template.firstRange(of: #"<slot name="credit-score">"#)
        let balances = template.firstRange(of: #"<slot name="balances">"#)
        #expect(credit != nil && balances != nil)
        if let credit, let balances { #expect(credit.lowerBound < balances.lowerBound) }
        #expect(template.contains("Loading &lt;Balances&gt;…"))
        #expect(template.hasSuffix("<slot></slot></template>"), "a last slot for cards without one")
        #expect(html.hasPrefix(#"<main class="stack" id="stack">"#))
    }

    @Test func aSlottedCardNamesItsSlot() {
        let page = page(["alerts"])
        let card = string { page.renderSection(page.children[0], slot: "alerts", into: &$0) }
        #expect(card.hasPrefix(#"<section class="section" id="section-alerts" data-section="alerts" aria-labelledby="alerts-title" slot="alerts">"#))
        let plain = string { page.renderSection(page.children[0], into: &$0) }
        #expect(!plain.contains("slot="))
    }
}
