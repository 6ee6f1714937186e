import HTTPServer
import Sectional
import SectionalServer

/// The sign-in form: a plain POST that works without script. While the
/// database holds the seeded demo data, it names the demo users.
struct SignInPage {
    static let path = "/signin"

    var site: Site
    var next: String
    var name = ""
    var problem: String?
    /// A one-time notice above the form, as `Site.notices` names it (after signing out).
    var notice: String?
    var showsDemoUsers: Bool

    /// `/signin?next=…` that brings the visitor back to `request`'s page.
    static func path(returningTo request: Request) -> String {
        // A form post cannot be repeated by following a link: come back to the feed instead.
        guard request.method == .get || request.method == .head else { return path + "?next=/feed" }
        var target = request.path
        let query = request.query.filter { $0.name != "stream" }
        if !query.isEmpty {
            target +=
                "?"
                + query.map { PercentEncoding.encode($0.name, keeping: "/") + "=" + PercentEncoding.encode($0.value, keeping: "/") }.joined(
                    separator: "&")
        }
        return path + "?next=" + PercentEncoding.encode(target, keeping: "/")
    }

    func response(status: HTTPStatus = .ok) -> Response {
        var html = HTMLWriter()
        HTMLDocument(title: "Sign in · \(site.name)", head: site.head) {
            HTMLRenderer { html in site.banner(nil).render(into: &html) }
            main(.class("signin")) {
                h1(.class("page-title")) { "Sign in" }
                p(.class("signin-lead")) { "Your balances, alerts and credit score on one page." }
                if let notice { p(.class("notice"), .role("status")) { notice } }
                if let problem { p(.class("signin-problem"), .role("alert")) { problem } }
                form(.method("post"), .action(Self.path)) {
                    input(.type("hidden"), .name("next"), .value(next))
                    label(.labelFor("signin-name")) { "Name" }
                    input(
                        .type("text"), .id("signin-name"), .name("name"), .value(name), HTMLAttribute("autocomplete", "username"), .required,
                        HTMLAttribute("autocapitalize", "none"))
                    label(.labelFor("signin-password")) { "Password" }
                    input(
                        .type("password"), .id("signin-password"), .name("password"), HTMLAttribute("autocomplete", "current-password"),
                        .required)
                    button(.type("submit"), .class("primary")) { "Sign in" }
                }
                if showsDemoUsers {
                    aside(.class("demo-users"), .aria("label", "Demo users")) {
                        p { "This server runs on demo data. Sign in as one of its users:" }
                        ul {
                            for user in SeedData.users {
                                li {
                                    strong { user.name }
                                    " with the password "
                                    code { user.password }
                                }
                            }
                        }
                    }
                }
            }
        }.render(into: &html)
        var response = site.html(html, status: status)
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
