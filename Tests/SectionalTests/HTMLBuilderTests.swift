import Testing

@testable import Sectional

/// The result builder: elements, attributes, control flow and void elements.
@Suite("HTML builder")
struct HTMLBuilderTests {
    @Test func elementsNestWithAttributesInOrder() {
        let html = div(.class("card"), .id("c1"), .aria("label", "Card"), .data("section", "alerts")) {
            h2 { "Title" }
            p { "Body" }
        }.render()
        #expect(html == #"<div class="card" id="c1" aria-label="Card" data-section="alerts"><h2>Title</h2><p>Body</p></div>"#)
    }

    @Test func anElementListsItsAttributesInOrderHoweverItWasMade() {
        #expect(div { "x" }.attributes.isEmpty)
        #expect(div(attributes: []) { "x" }.render() == "<div>x</div>")
        #expect(div(.class("one")) { "x" }.attributes.map(\.name) == ["class"])
        #expect(div(.class("a"), .id("b")) { "x" }.attributes.map(\.value) == ["a", "b"])
        #expect(div(attributes: [.id("b"), .class("a")]) { "x" }.attributes.map(\.name) == ["id", "class"])
    }

    @Test func emptyElementsKeepTheirEndTag() {
        #expect(div(.class("spacer")).render() == #"<div class="spacer"></div>"#)
        #expect(span {}.render() == "<span></span>")
        #expect(script(.src("/app.js"), .defer).render() == #"<script src="/app.js" defer></script>"#)
    }

    @Test func voidElementsHaveNoEndTag() {
        #expect(br().render() == "<br>")
        #expect(hr(.class("rule")).render() == #"<hr class="rule">"#)
        #expect(meta(.charset("utf-8")).render() == #"<meta charset="utf-8">"#)
        #expect(input(.type("checkbox"), .name("ok"), .checked).render() == #"<input type="checkbox" name="ok" checked>"#)
        #expect(img(.src("/a.png"), HTMLAttribute("alt", "A & B")).render() == #"<img src="/a.png" alt="A &amp; B">"#)
        #expect(
            p {
                "a"; br(); "b"
            }.render() == "<p>a<br>b</p>")
    }

    @Test(arguments: [true, false])
    func ifElseRendersOneBranch(_ condition: Bool) {
        let html = div {
            if condition {
                p { "yes" }
            } else {
                span { "no" }
            }
        }.render()
        #expect(html == (condition ? "<div><p>yes</p></div>" : "<div><span>no</span></div>"))
    }

    @Test(arguments: [true, false])
    func ifWithoutElseRendersNothingWhenFalse(_ condition: Bool) {
        let html = div {
            "before"
            if condition { em { "shown" } }
            "after"
        }.render()
        #expect(html == (condition ? "<div>before<em>shown</em>after</div>" : "<div>beforeafter</div>"))
    }

    @Test(arguments: [nil, "Ada <admin>"] as [String?])
    func optionalsRenderWhenPresent(_ name: String?) {
        let html = p {
            if let name { strong { name } }
            name.map { name in small { "(\(name.count))" } }
        }.render()
        if let name {
            #expect(html == "<p><strong>\(name.render())</strong><small>(\(name.count))</small></p>")
        } else {
            #expect(html == "<p></p>")
        }
    }

    @Test func forLoopsRenderEveryItemInOrder() {
        let items = ["one", "<two>", "three"]
        let html = ul {
            for (index, item) in items.enumerated() {
                li(.data("index", String(index))) { item }
            }
        }.render()
        #expect(html == #"<ul><li data-index="0">one</li><li data-index="1">&lt;two&gt;</li><li data-index="2">three</li></ul>"#)
        #expect(ul { for item in [String]() { li { item } } }.render() == "<ul></ul>")
    }

    @Test(arguments: [0, 1, 7])
    func switchRendersTheMatchingCase(_ count: Int) {
        let html = p {
            switch count {
            case 0: "none"
            case 1: strong { "one" }
            default: em { "\(count) items" }
            }
        }.render()
        let expected = ["<p>none</p>", "<p><strong>one</strong></p>", "<p><em>7 items</em></p>"]
        #expect(html == expected[min(count, 2)])
    }

    @Test func arraysOptionalsAndGroupsAreContent() {
        #expect(["a", "<b>"].render() == "a&lt;b&gt;")
        #expect((nil as String?).render() == "")
        #expect(EmptyHTML().render() == "")
        let group = HTMLGroup {
            h1 { "T" }; p { "x" }
        }
        #expect(div { group }.render() == "<div><h1>T</h1><p>x</p></div>")
        let renderer = HTMLRenderer { html in html.writeEscaped("<raw?>") }
        #expect(section { renderer }.render() == "<section>&lt;raw?&gt;</section>")
    }
}
