import Testing

@testable import Sectional

/// Elements written in place (`html.element(Tag.td.self) { … }`) give the
/// same bytes as the builder's elements, escape their text and close every tag.
@Suite("Elements written in place")
struct InPlaceElementTests {
    private static let hostile = [
        "plain", "", "<script>alert(1)</script>", #"" onclick="x"#, "Tom & Jerry's", "a'b\"c<d>e&f", "é ✓ 😀",
    ]

    @Test(arguments: hostile)
    func sameBytesAsTheBuilder(_ text: String) {
        let built = tr(.class("row")) {
            td { div(.class("name")) { text } }
            td(.id("cell"), .class("amount")) {
                text; span { 42 }
            }
        }.render()
        var html = HTMLWriter()
        html.element(Tag.tr.self, class: "row") { html in
            html.element(Tag.td.self) { html in html.element(Tag.div.self, .class("name")) { $0.text(text) } }
            html.element(Tag.td.self, .id("cell"), .class("amount")) { html in
                html.text(text)
                html.element(Tag.span.self) { $0.write(42) }
            }
        }
        #expect(String(decoding: html.bytes, as: UTF8.self) == built)
    }

    @Test(arguments: hostile)
    func attributeValuesAreEscaped(_ value: String) {
        var html = HTMLWriter()
        html.element(Tag.a.self, .href(value)) { $0.text("link") }
        #expect(String(decoding: html.bytes, as: UTF8.self) == a(.href(value)) { "link" }.render())
        #expect(String(decoding: html.bytes, as: UTF8.self).filter { $0 == "\"" }.count == 2)
    }

    @Test(arguments: [true, false])
    func aClassFromTheProgramIsWrittenAsIs(negative: Bool) {
        var html = HTMLWriter()
        html.element(Tag.td.self, class: negative ? "amount negative" : "amount") { $0.text("−$5.00") }
        let expected = negative ? #"<td class="amount negative">−$5.00</td>"# : #"<td class="amount">−$5.00</td>"#
        #expect(String(decoding: html.bytes, as: UTF8.self) == expected)
    }

    @Test func builtContentPlacedInside() {
        var html = HTMLWriter()
        html.element(Tag.ul.self) { html in
            for item in ["one", "<two>"] { html.write(li { item }) }
        }
        #expect(String(decoding: html.bytes, as: UTF8.self) == "<ul><li>one</li><li>&lt;two&gt;</li></ul>")
    }

    @Test func emptyContentStillCloses() {
        var html = HTMLWriter()
        html.element(Tag.div.self, class: "spacer") { _ in }
        html.element(Tag.p.self) { _ in }
        #expect(String(decoding: html.bytes, as: UTF8.self) == #"<div class="spacer"></div><p></p>"#)
    }

    @Test(arguments: hostile)
    func textElementsEscapeAsTheBuilderDoes(_ text: String) {
        var html = HTMLWriter()
        html.element(Tag.strong.self, text: text)
        html.element(Tag.span.self, class: "name", text: text)
        let built = strong { text }.render() + span(.class("name")) { text }.render()
        #expect(String(decoding: html.bytes, as: UTF8.self) == built)
    }

    @Test func forEachWritesEveryItemInOrder() {
        struct Row { var name: String; var count: Int }
        let rows = [Row(name: "first <one>", count: 1), Row(name: "second", count: 22), Row(name: "third & last", count: 333)]
        var html = HTMLWriter()
        html.forEach(rows) { html, row in
            html.element(Tag.li.self) { html in
                html.element(Tag.span.self, text: row.name)
                html.writeDecimal(row.count)
            }
        }
        #expect(
            String(decoding: html.bytes, as: UTF8.self)
                == "<li><span>first &lt;one&gt;</span>1</li><li><span>second</span>22</li><li><span>third &amp; last</span>333</li>")
    }

    @Test func forEachOverNoItemsWritesNothing() {
        var html = HTMLWriter()
        html.element(Tag.ul.self) { html in html.forEach([String]()) { html, item in html.text(item) } }
        #expect(String(decoding: html.bytes, as: UTF8.self) == "<ul></ul>")
    }
}
