/// A page that stacks its children top to bottom, each in a card carrying
/// its id (the server's `UIStackView` of child view controllers).
///
/// With a `plan` and an `address`, each card links to the page without it
/// and the page offers links to add every absent section, so a person never
/// types a query string.
open class StackPageController: SectionController {
    /// The composition shown, for remove and add links.
    public var plan: CompositionPlan?
    public var address: PageAddress?
    /// Shown when the page has no section.
    public var emptyStateMessage = "No sections are shown. Add one below."

    /// The stack, its cards in page order, and the add links. A streamed page
    /// sends the same bytes in three parts: `renderOpening`, each card as it
    /// is ready (`renderSection`), then `renderClosing`.
    override open func render(into html: inout HTMLWriter) {
        renderOpening(into: &html)
        for child in children { renderSection(child, into: &html) }
        renderClosing(into: &html)
    }

    /// The stack's start tag, with the empty state when there is no child.
    public func renderOpening(into html: inout HTMLWriter) {
        html.writeRaw(#"<main class="stack" id="stack">"#)
        if children.isEmpty {
            div(.class("stack-empty"), .role("status")) { p { emptyStateMessage } }.render(into: &html)
        }
    }

    /// The stack's end tag, then the links that add absent sections.
    public func renderClosing(into html: inout HTMLWriter) {
        html.writeRaw("</main>")
        renderPicker(into: &html)
    }

    /// The opening for cards sent in whatever order they finish: a declarative
    /// shadow root lays out one slot per child, in page order, each showing a
    /// placeholder until its card (rendered with `slot:`) arrives. No script
    /// is needed; a browser without shadow roots shows the cards in arrival order.
    public func renderOutOfOrderOpening(stylesheet: String, into html: inout HTMLWriter) {
        renderOpening(into: &html)
        template(HTMLAttribute("shadowrootmode", "open")) {
            link(.rel("stylesheet"), .href(stylesheet))
            for child in children {
                slot(.name(child.id)) {
                    div(.class("section-placeholder"), .aria("busy", "true")) { "Loading \(child.title)…" }
                }
            }
            // Cards added later by script have no slot of their own: they go last.
            slot()
        }.render(into: &html)
    }

    /// One child in its card: header with title and remove link, then its
    /// content or fallback. Also served alone as the section's fragment.
    /// With `slot`, the card fills that slot of an out-of-order opening.
    public func renderSection(_ child: SectionController, slot slotName: String? = nil, into html: inout HTMLWriter) {
        let headingID = child.id + "-title"
        var attributes: [HTMLAttribute] = [.class("section"), .id("section-" + child.id), .data("section", child.id), .aria("labelledby", headingID)]
        if let slotName { attributes.append(HTMLAttribute("slot", slotName)) }
        if case .failed(let error) = child.loadState {
            attributes.append(.data("load", error is SectionTimedOut ? "timed-out" : "failed"))
        }
        section(attributes: attributes) {
            header(.class("section-header")) {
                h2(.id(headingID)) { child.title }
                if let plan, let address {
                    a(.class("section-remove"), .href(address.url(for: plan.removing(child.id))),
                      .data("section-action", "remove"), .aria("label", "Remove \(child.title)")) { "Remove" }
                }
            }
            div(.class("section-body")) {
                HTMLRenderer { html in child.renderContent(into: &html) }
            }
        }.render(into: &html)
    }

    /// Links that add each section the page does not show.
    func renderPicker(into html: inout HTMLWriter) {
        guard let plan, let address, !plan.absentIDs.isEmpty else { return }
        nav(.class("section-picker"), .aria("label", "Add sections")) {
            h2 { "Add a section" }
            ul {
                for id in plan.absentIDs {
                    li {
                        a(.href(address.url(for: plan.adding(id))), .data("section-action", "add"), .data("section", id)) {
                            "+ \(plan.catalog.title(of: id) ?? id)"
                        }
                    }
                }
            }
        }.render(into: &html)
    }

    /// The page as a whole document, with `rel=canonical` for its composition.
    public func renderDocument(stylesheets: [String] = ["/styles.css"], scripts: [String] = [], into html: inout HTMLWriter) {
        let canonical = plan.flatMap { plan in address.map { $0.url(for: plan) } }
        HTMLDocument(title: title, stylesheets: stylesheets, scripts: scripts, canonicalURL: canonical) {
            HTMLRenderer { html in self.render(into: &html) }
        }.render(into: &html)
    }
}
