import Testing

@testable import Sectional

/// Attributes written in place (`element(_:attributes:content:)`, `hiddenInput`)
/// and literal text give the builder's bytes, escape every value and part,
/// and copy a clean literal as it is.
@Suite("Attributes and literal text written in place")
struct InPlaceAttributeTests {
    private static let hostile = [
        "plain", "", "<script>alert(1)</script>", #"" onclick="x"#, "Tom & Jerry's", "a'b\"c<d>e&f", "é ✓ 😀",
    ]

    private static func written(_ write: (inout HTMLWriter) -> Void) -> String {
        var html = HTMLWriter(capacity: 64)
        write(&html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    @Test(arguments: hostile, [true, false])
    func sameBytesAsTheBuilder(_ text: String, chosen: Bool) {
        let built = option(attributes: [.value(text + ":" + text), .title(text)] + (chosen ? [.selected] : [])) { text }.render()
        let inPlace = Self.written { html in
            html.element(
                Tag.option.self,
                attributes: { attributes in
                    attributes.attribute("value") { value in
                        value.text(text)
                        value.text(":")
                        value.text(text)
                    }
                    attributes.attribute("title", text)
                    if chosen { attributes.attribute("selected") }
                }
            ) { $0.text(text) }
        }
        #expect(inPlace == built)
    }

    @Test(arguments: hostile)
    func noValueLeavesItsQuotes(_ text: String) {
        let html = Self.written { html in
            html.element(
                Tag.a.self,
                attributes: { attributes in
                    attributes.attribute("href", text)
                    attributes.attribute("aria-label") { value in
                        value.text(text)
                        value.write(-42)
                        value.text(Array(text.utf8).span)
                    }
                }
            ) { _ in }
        }
        #expect(html.filter { $0 == "\"" }.count == 4)
        #expect(!html.dropFirst().dropLast(4).contains("<"))
    }

    @Test func aContainerOpenedAndClosedInSeparateStepsWrapsWhatIsBetween() {
        let html = Self.written { html in
            html.startTag(Tag.main.self, class: "stack")
            html.text("<cards>")
            html.endTag(Tag.main.self)
        }
        #expect(html == #"<main class="stack">&lt;cards&gt;</main>"#)
    }

    @Test func literalsAndNumbersAreWrittenAsTheyRead() {
        let html = Self.written { html in
            html.element(
                Tag.progress.self,
                attributes: { attributes in
                    attributes.attribute("max", "100")
                    attributes.attribute("data-range") { value in
                        value.write(-64)
                        value.text(" to ")
                        value.write(240)
                    }
                    attributes.attribute("title", #"Tom & "Jerry's" <cat>"#)
                }
            ) { _ in }
        }
        #expect(html == #"<progress max="100" data-range="-64 to 240" title="Tom &amp; &quot;Jerry&#39;s&quot; &lt;cat&gt;"></progress>"#)
    }

    @Test(arguments: hostile)
    func hiddenInputsAreTheBuildersInput(_ value: String) {
        let built = input(.type("hidden"), .name("back"), .value(value)).render()
        #expect(Self.written { $0.hiddenInput(name: "back", value: value) } == built)
        #expect(Self.written { html in html.hiddenInput(name: "back") { $0.text(Array(value.utf8).span) } } == built)
        #expect(
            Self.written { html in html.hiddenInput(name: "id") { $0.write(7) } } == #"<input type="hidden" name="id" value="7">"#)
    }

    /// Literal text is escaped as a string's is, at every length the
    /// writer tests whole (up to 32 bytes) and past it.
    @Test func literalTextIsEscapedAsAStringIs() {
        let literals: [(StaticString, String)] = [
            ("", ""), ("$", "$"), ("\u{2212}", "\u{2212}"), ("&", "&amp;"), ("a<b", "a&lt;b"), (" in 12 months", " in 12 months"),
            ("#", "#"), ("Tom & Jerry's", "Tom &amp; Jerry&#39;s"), ("0123456789abcdef>", "0123456789abcdef&gt;"),
            (#"a 32-byte text, ending in quote""#, "a 32-byte text, ending in quote&quot;"),
            ("Score history over 12 months, from ", "Score history over 12 months, from "),
            ("a text longer than thirty-two bytes, with <markup>", "a text longer than thirty-two bytes, with &lt;markup&gt;"),
            ("& then a text longer than thirty-two bytes", "&amp; then a text longer than thirty-two bytes"),
            ("a text longer than thirty-two bytes, & in its middle too", "a text longer than thirty-two bytes, &amp; in its middle too"),
        ]
        for (literal, expected) in literals {
            #expect(Self.written { $0.text(literal) } == expected, "\(literal)")
            #expect(Self.written { $0.text(literal.description) } == expected, "\(literal)")
        }
    }

    @Test(arguments: hostile)
    func textFromBytesIsEscapedAsAStringIs(_ text: String) {
        #expect(Self.written { $0.text(Array(text.utf8).span) } == Self.written { $0.text(text) })
    }
}
