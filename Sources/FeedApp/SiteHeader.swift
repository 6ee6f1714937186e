import Sectional

/// The banner on every page: the site's name and its pages.
struct SiteHeader: HTML {
    /// The page shown, `feed` or `day`; `nil` on error pages.
    var active: String?
    /// Who is signed in, on pages that know.
    var account: AccountMenu?

    /// Written straight into the writer, as the framework's own chrome is: it tops every page.
    func render(into html: inout HTMLWriter) {
        html.writeRaw(#"<header class="site-header"><a class="brand" href="/feed">Sectional</a><nav aria-label="Pages">"#)
        writeLink("feed", "Feed", into: &html)
        writeLink("day", "Day", into: &html)
        html.writeRaw("</nav>")
        if let account {
            html.writeRaw(#"<div class="account"><span class="signed-in-as">"#)
            html.writeEscaped(account.displayName)
            html.writeRaw("</span>")
            if let token = account.signOutToken {
                PostForm(action: SignInRoutes.signOutPath, token: token, label: "Sign out", cssClass: "sign-out").render(into: &html)
            }
            html.writeRaw("</div>")
        }
        html.writeRaw("</header>")
    }

    private func writeLink(_ name: StaticString, _ label: StaticString, into html: inout HTMLWriter) {
        html.writeRaw(#"<a href="/"#)
        html.writeRaw(name)
        // Compared on the bytes: `name.description` made a string a link.
        let isActive = active.map { active in name.withUTF8Buffer { $0.elementsEqual(active.utf8) } } ?? false
        html.writeRaw(isActive ? #"" aria-current="page">"# : #"">"#)
        html.writeRaw(label)
        html.writeRaw("</a>")
    }
}
