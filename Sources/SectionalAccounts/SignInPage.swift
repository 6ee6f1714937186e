import HTTPServer
import Sectional
import SectionalServer

/// The sign-in form: a plain POST that works without script. While the
/// site runs on demo data, it names the demo users.
struct SignInPage {
    static let path = "/signin"

    var site: Site
    /// What the site is, under the heading.
    var lead: String?
    var next: String
    var name = ""
    var problem: String?
    /// A one-time notice above the form, as `Site.notices` names it (after signing out).
    var notice: String?
    var demoUsers: [DemoUser]

    /// `/signin?next=…` that brings the visitor back to `request`'s page.
    static func path(returningTo request: Request) -> String {
        // A form post cannot be repeated by following a link: come back to the site's home instead.
        guard request.method == .get || request.method == .head else { return path }
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
                if let lead { p(.class("signin-lead")) { lead } }
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
                if !demoUsers.isEmpty {
                    aside(.class("demo-users"), .aria("label", "Demo users")) {
                        p { "This server runs on demo data. Sign in as one of its users:" }
                        ul {
                            for user in demoUsers {
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

/// A user of demo data, named on the sign-in page with their password.
public struct DemoUser: Sendable {
    /// The name they sign in with.
    public var name: String
    /// Their password, shown to whoever opens the sign-in page.
    public var password: String

    /// `name`, signing in with `password`.
    public init(name: String, password: String) {
        self.name = name
        self.password = password
    }
}
