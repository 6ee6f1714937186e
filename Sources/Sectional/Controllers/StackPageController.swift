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

    override open func render(into html: inout HTMLWriter) {
        main(.class("stack"), .id("stack")) {
            if children.isEmpty {
                div(.class("stack-empty"), .role("status")) { p { emptyStateMessage } }
            }
            HTMLRenderer { html in
                for child in self.children { self.renderSection(child, into: &html) }
            }
        }.render(into: &html)
        renderPicker(into: &html)
    }

    /// One child in its card: header with title and remove link, then its
    /// content or fallback. Also served alone as the section's fragment.
    public func renderSection(_ child: SectionController, into html: inout HTMLWriter) {
        let headingID = child.id + "-title"
        section(.class("section"), .id("section-" + child.id), .data("section", child.id), .aria("labelledby", headingID)) {
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
