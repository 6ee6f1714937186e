import Sectional

/// The site's frame around a page: the banner, then the page. The classic
/// single-child container.
final class PageShell: ContainerController {
    private let banner: any HTML

    init(page: StackPageController, banner: any HTML) {
        self.banner = banner
        super.init(id: "shell", title: page.title, child: page)
    }

    override func render(into html: inout HTMLWriter) {
        banner.render(into: &html)
        child?.renderContent(into: &html)
    }
}
