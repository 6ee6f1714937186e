import Sectional
import SectionalAccounts
import SectionalSecurity

/// The banner on every page: the site's name and its pages.
struct SiteHeader: HTML {
    /// The page shown, `feed` or `day`; `nil` on error pages.
    var active: String?
    /// Who is signed in, on pages that know.
    var account: AccountMenu?

    /// Written in place, as the framework's own chrome is: it tops every page.
    func render(into html: inout HTMLWriter) {
        html.element(Tag.header.self, class: "site-header") { html in
            html.element(
                Tag.a.self,
                attributes: { attributes in
                    attributes.attribute("class", "brand")
                    attributes.attribute("href", "/feed")
                }
            ) { $0.text("Sectional") }
            html.element(Tag.nav.self, attributes: { $0.attribute("aria-label", "Pages") }) { html in
                writeLink(to: "/feed", "Feed", isCurrent: active == "feed", into: &html)
                writeLink(to: "/day", "Day", isCurrent: active == "day", into: &html)
            }
            if let account {
                html.element(Tag.div.self, class: "account") { html in
                    html.element(Tag.span.self, class: "signed-in-as", text: account.displayName)
                    if let token = account.signOutToken {
                        PostForm(action: SignInRoutes.signOutPath, token: token, label: "Sign out", cssClass: "sign-out").render(into: &html)
                    }
                }
            }
        }
    }

    private func writeLink(to path: StaticString, _ label: StaticString, isCurrent: Bool, into html: inout HTMLWriter) {
        html.element(
            Tag.a.self,
            attributes: { attributes in
                attributes.attribute("href", path)
                if isCurrent { attributes.attribute("aria-current", "page") }
            }
        ) { $0.text(label) }
    }
}
