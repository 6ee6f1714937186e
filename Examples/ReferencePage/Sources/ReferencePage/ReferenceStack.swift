import Sectional

/// The reference page's own stack markup: a bare `<main>` and one
/// `<section>` with a heading per card. Composition, loading and streaming
/// stay the framework's; only the markup around the cards is this page's.
///
/// The cards and sections are written in place (`html.element(Tag.li.self) { … }`),
/// not built as element trees: a tree copies each of the data's strings in
/// and out (two atomic updates apiece, on strings every worker thread
/// shares). As trees the page took 118,500 instructions and 1.8 times the
/// C renderer's CPU in a quick benchmark run; in place, 111,600 and 1.35
/// times in a quick run, 1.51 in a full one.
final class ReferenceStack: StackPageController {
    override func renderOpening(into html: inout HTMLWriter) {
        html.startTag(Tag.main.self, class: "stack")
    }

    override func renderClosing(into html: inout HTMLWriter) {
        html.endTag(Tag.main.self)
    }

    override func renderCardMarkup(_ child: SectionController, into html: inout HTMLWriter) {
        html.element(Tag.section.self, .class("section"), .id(child.id.rawValue)) { html in
            html.element(Tag.h2.self) { $0.text(child.title) }
            child.renderContent(into: &html)
        }
    }
}
