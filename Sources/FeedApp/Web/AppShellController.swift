import Sectional

/// The app's shell around a page: one child that fills it, under the site
/// header, inside the document. The classic single-child container.
///
/// A streamed page is sent as `renderDocumentOpening`, the page's cards, and
/// `renderDocumentClosing`; `renderDocument` is exactly those parts in a row.
final class AppShellController: ContainerController {
    private let active: String
    let page: StackPageController

    init(page: StackPageController, active: String) {
        self.active = active
        self.page = page
        super.init(id: "shell", title: "Sectional", child: page)
    }

    override func render(into html: inout HTMLWriter) {
        SiteHeader(active: active).render(into: &html)
        child?.renderContent(into: &html)
    }

    /// The whole document: title, stylesheet, script, canonical link, shell.
    /// `onSection` hears how long each card took to render.
    func renderDocument(into html: inout HTMLWriter, onSection: (SectionController, Duration) -> Void = { _, _ in }) {
        renderDocumentOpening(into: &html)
        let clock = ContinuousClock()
        for section in page.children {
            let start = clock.now
            page.renderSection(section, into: &html)
            onSection(section, clock.now - start)
        }
        renderDocumentClosing(into: &html)
    }

    /// Head, site header and the stack's opening: everything that needs no section data.
    /// - Parameter outOfOrder: lay the stack out as slots that cards fill as they finish.
    func renderDocumentOpening(outOfOrder: Bool = false, into html: inout HTMLWriter) {
        document.renderOpening(into: &html)
        SiteHeader(active: active).render(into: &html)
        if outOfOrder {
            page.renderOutOfOrderOpening(stylesheet: Self.stylesheet, into: &html)
        } else {
            page.renderOpening(into: &html)
        }
    }

    func renderDocumentClosing(into html: inout HTMLWriter) {
        page.renderClosing(into: &html)
        document.renderClosing(into: &html)
    }

    private static let stylesheet = "/styles.css"

    private var document: HTMLDocument<EmptyHTML> {
        let canonical = page.plan.flatMap { plan in page.address?.url(for: plan) }
        return HTMLDocument(title: "\(page.title) · Sectional", stylesheets: [Self.stylesheet], scripts: ["/app.js"], canonicalURL: canonical)
    }
}
