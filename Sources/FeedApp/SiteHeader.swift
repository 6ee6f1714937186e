import Sectional

/// The banner on every page: the site's name and its pages.
struct SiteHeader: HTML {
    /// The page shown, `feed` or `day`; `nil` on error pages.
    var active: String?
    /// Who is signed in, on pages that know.
    var account: AccountMenu?

    func render(into html: inout HTMLWriter) {
        header(.class("site-header")) {
            a(.class("brand"), .href("/feed")) { "Sectional" }
            nav(.aria("label", "Pages")) {
                link("feed", "Feed")
                link("day", "Day")
            }
            if let account {
                div(.class("account")) {
                    span(.class("signed-in-as")) { account.displayName }
                    if let token = account.signOutToken {
                        PostForm(action: SignInRoutes.signOutPath, token: token, label: "Sign out", cssClass: "sign-out")
                    }
                }
            }
        }.render(into: &html)
    }

    private func link(_ name: String, _ label: String) -> a<String> {
        a(attributes: name == active ? [.href("/" + name), .aria("current", "page")] : [.href("/" + name)]) { label }
    }
}
