import Sectional

/// The site's frame around a page: the banner, a one-time notice if the
/// request asked for one, then the page. The classic single-child container.
final class PageShell: ContainerController {
    private let banner: any HTML
    private let notice: String?

    init(page: StackPageController, banner: any HTML, notice: String?) {
        self.banner = banner
        self.notice = notice
        super.init(id: "shell", title: page.title, child: page)
    }

    override func render(into html: inout HTMLWriter) {
        banner.render(into: &html)
        if let notice { div(.class("notice"), .role("status")) { p { notice } }.render(into: &html) }
        child?.renderContent(into: &html)
    }
}
