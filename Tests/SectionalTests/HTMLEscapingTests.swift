import Testing

@testable import Sectional

/// A `String` placed in HTML is escaped text, in element content and in
/// attribute values alike; only `RawHTML` is written as is.
@Suite("HTML escaping")
struct HTMLEscapingTests {
    struct Hostile: Sendable, CustomTestStringConvertible {
        var input: String
        var escaped: String
        var testDescription: String { input }
    }

    static let hostileStrings: [Hostile] = [
        Hostile(input: "<script>alert(1)</script>", escaped: "&lt;script&gt;alert(1)&lt;/script&gt;"),
        Hostile(input: #""><img src=x onerror=alert(1)>"#, escaped: "&quot;&gt;&lt;img src=x onerror=alert(1)&gt;"),
        Hostile(input: "'", escaped: "&#39;"),
        Hostile(input: "' onmouseover='alert(1)", escaped: "&#39; onmouseover=&#39;alert(1)"),
        Hostile(input: "&amp;", escaped: "&amp;amp;"),
        Hostile(input: "&lt;b&gt;", escaped: "&amp;lt;b&amp;gt;"),
        Hostile(input: "Tom & Jerry", escaped: "Tom &amp; Jerry"),
        Hostile(input: "&<>\"'", escaped: "&amp;&lt;&gt;&quot;&#39;"),
        Hostile(input: "café <b>naïve</b> 💸", escaped: "café &lt;b&gt;naïve&lt;/b&gt; 💸"),
        Hostile(input: "plain text", escaped: "plain text"),
        Hostile(input: "", escaped: ""),
    ]

    @Test(arguments: hostileStrings)
    func textIsEscaped(_ hostile: Hostile) {
        #expect(hostile.input.render() == hostile.escaped)
        #expect(p { hostile.input }.render() == "<p>\(hostile.escaped)</p>")
    }

    @Test(arguments: hostileStrings)
    func attributeValuesAreEscaped(_ hostile: Hostile) {
        #expect(div(.title(hostile.input)).render() == #"<div title="\#(hostile.escaped)"></div>"#)
        #expect(
            a(.href(hostile.input), .data("note", hostile.input)) { "x" }.render()
                == #"<a href="\#(hostile.escaped)" data-note="\#(hostile.escaped)">x</a>"#)
        #expect(img(.src(hostile.input)).render() == #"<img src="\#(hostile.escaped)">"#)
    }

    @Test(arguments: hostileStrings)
    func aValueAfterAFixedStartIsEscapedAndTheStartIsNot(_ hostile: Hostile) {
        let attribute = HTMLAttribute.class("alert alert-", hostile.input)
        #expect(li(attribute) { "x" }.render() == #"<li class="alert alert-\#(hostile.escaped)">x</li>"#)
        #expect(attribute.name == "class")
        #expect(attribute.value == "alert alert-" + hostile.input)
        #expect(HTMLAttribute("data-kind", start: "k-", hostile.input).value == "k-" + hostile.input)
    }

    @Test func aLiteralClassIsEscapedToo() {
        // A literal picks the static overload; escaping still applies to it.
        let literal = HTMLAttribute.class(#"a"b<c>&'d"#)
        #expect(span(literal) { "x" }.render() == #"<span class="a&quot;b&lt;c&gt;&amp;&#39;d">x</span>"#)
        #expect(literal.name == "class")
        #expect(literal.value == #"a"b<c>&'d"#)
        guard case .literalClass = literal.parts else {
            Issue.record("a literal class was kept as strings")
            return
        }
    }

    @Test(arguments: ["badge", "amount negative", "", "é ✓"])
    func aLiteralClassRendersAsTheSameClassFromAString(_ value: String) {
        let literal: HTMLAttribute =
            switch value {
            case "badge": .class("badge")
            case "amount negative": .class("amount negative")
            case "": .class("")
            default: .class("é ✓")
            }
        #expect(div(literal) { "x" }.render() == div(.class(value)) { "x" }.render())
        #expect(literal.value == value)
        #expect(
            ul(literal, .id("list")) { li(.class(value)) { "y" } }.render()
                == ul(attributes: [.class(value), .id("list")]) { li(literal) { "y" } }.render())
    }

    @Test func escapedOutputNeverOpensATagOrLeavesAQuote() {
        let attack = #"</p><script>alert("x")</script><p title='"#
        let html = p(.title(attack)) { attack }.render()
        #expect(occurrences(of: "<", in: html) == 2, "only the p's own tags: \(html)")
        #expect(occurrences(of: "\"", in: html) == 2, "only the title's own quotes: \(html)")
        #expect(!html.contains("'"))
    }

    @Test func rawHTMLIsWrittenAsIs() {
        let markup = #"<b class="x">bold</b> & <i>co</i>"#
        #expect(RawHTML(markup).render() == markup)
        #expect(
            p {
                RawHTML("<br>"); "<br>"
            }.render() == "<p><br>&lt;br&gt;</p>")
    }

    @Test func writerEscapesIntoUTF8Bytes() {
        var writer = HTMLWriter()
        writer.writeRaw("<p>")
        writer.writeEscaped("é<")
        writer.writeRaw("</p>" as StaticString)
        #expect(writer.bytes == Array("<p>é&lt;</p>".utf8))

        var outer = HTMLWriter()
        outer.writeRaw("[")
        outer.write(writer)
        outer.writeRaw("]")
        #expect(String(decoding: outer.bytes, as: UTF8.self) == "[<p>é&lt;</p>]")
    }

    @Test func escapingAVeryLongStringKeepsEveryByte() {
        let input = String(repeating: "a<b&c'd\"e>", count: 2_000)
        let expected = String(repeating: "a&lt;b&amp;c&#39;d&quot;e&gt;", count: 2_000)
        #expect(input.render() == expected)
    }
}
