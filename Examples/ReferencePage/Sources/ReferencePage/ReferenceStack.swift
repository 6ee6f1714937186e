import Sectional

/// The reference page's own stack markup: a bare `<main>` and one
/// `<section>` with a heading per card. Composition, loading and streaming
/// stay the framework's; only the markup around the cards is this page's.
final class ReferenceStack: StackPageController {
    override func renderOpening(into html: inout HTMLWriter) {
        html.writeRaw(#"<main class="stack">"#)
    }

    override func renderClosing(into html: inout HTMLWriter) {
        html.writeRaw("</main>")
    }

    override func renderCardMarkup(_ child: SectionController, into html: inout HTMLWriter) {
        section(.class("section"), .id(child.id.rawValue)) {
            h2 { child.title }
            child.content
        }.render(into: &html)
    }
}
