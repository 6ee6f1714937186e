import Sectional

/// The app's shell around a page: one child that fills it, under the site
/// header, inside the document. The classic single-child container.
final class AppShellController: ContainerController {
    private let active: String

    init(page: StackPageController, active: String) {
        self.active = active
        super.init(id: "shell", title: "Sectional", child: page)
    }

    override func render(into html: inout HTMLWriter) {
        SiteHeader(active: active).render(into: &html)
        child?.renderContent(into: &html)
    }

    /// The whole document: title, stylesheet, script, canonical link, shell.
    func renderDocument(into html: inout HTMLWriter) {
        let page = child as? StackPageController
        let canonical = page.flatMap { page in page.plan.flatMap { plan in page.address?.url(for: plan) } }
        HTMLDocument(title: "\(child?.title ?? title) · Sectional", stylesheets: ["/styles.css"], scripts: ["/app.js"], canonicalURL: canonical) {
            HTMLRenderer { html in self.render(into: &html) }
        }.render(into: &html)
    }
}
