import HTTPServer
import Sectional
import SectionalSecurity
import SectionalServer

/// `GET /signin`, `POST /signin` and `POST /signout`: the form of the
/// site's `Accounts`, served without script. A visitor signed in goes back
/// to the page that sent them, or to the site's home.
public struct SignInRoutes: Sendable {
    /// Where signing out is posted: `PostForm(action: SignInRoutes.signOutPath, token: …)`.
    public static let signOutPath = "/signout"
    /// What the form says after signing out, unless the site's `notices` word it otherwise.
    static let notices = ["signed-out": "You are signed out."]

    let accounts: Accounts
    let formGuard: FormGuard
    let site: Site
    /// Signing out ends the session's live streams.
    let live: LiveHub?
    let lead: String?
    let demoUsers: @Sendable () async throws -> [DemoUser]

    /// The form of `accounts` on `site`, its sign-out guarded by `formGuard`.
    /// - Parameters:
    ///   - accounts: who may sign in, and their sessions.
    ///   - formGuard: what signs the sign-out form and checks its post.
    ///   - site: the site whose pages the form leads back to (its home when no page sent the visitor).
    ///   - live: the hub told of each sign-in and sign-out, whose streams of a session signed out end.
    ///   - lead: a line under the form's heading that says what the site is.
    ///   - demoUsers: the users the form names with their passwords, while
    ///     the site runs on demo data; none for a real site.
    public init(
        accounts: Accounts, formGuard: FormGuard, site: Site, live: LiveHub?, lead: String? = nil,
        demoUsers: @escaping @Sendable () async throws -> [DemoUser] = { [] }
    ) {
        self.accounts = accounts
        self.formGuard = formGuard
        self.site = site
        self.live = live
        self.lead = lead
        self.demoUsers = demoUsers
    }

    /// Adds the three routes.
    public func register(on router: inout Router) {
        router.get(SignInPage.path) { request in try await form(request) }
        router.on(.post, SignInPage.path) { request in try await signIn(request) }
        router.postSignedInForm(Self.signOutPath, in: site, guardedBy: formGuard) { form in try await signOut(form) }
    }

    private func next(_ value: String?) -> String { LocalRedirect.path(value, fallback: site.home.path) }

    func form(_ request: Request) async throws -> Response {
        let next = next(request.queryValue("next"))
        if try await accounts.visitor(for: request) != nil { return .seeOther(next) }
        var page = SignInPage(site: site, lead: lead, next: next, demoUsers: try await demoUsers())
        page.notice = request.queryValue("notice").flatMap { site.notices[$0] ?? Self.notices[$0] }
        return page.response()
    }

    func signIn(_ request: Request) async throws -> Response {
        try FormGuard.checkSameOrigin(request)
        let fields = try request.formFields()
        func field(_ name: String) -> String { fields.first { $0.name == name }?.value ?? "" }
        let next = next(field("next"))
        var page = SignInPage(site: site, lead: lead, next: next, name: field("name"), demoUsers: try await demoUsers())
        guard !field("name").isEmpty, !field("password").isEmpty else {
            page.problem = "Enter your name and your password."
            return page.response(status: .badRequest)
        }
        switch try await accounts.signIn(name: field("name"), password: field("password"), from: accounts.clientAddress(of: request)) {
        case .signedIn(_, let token, let change):
            live?.announce(change)
            // A new session id at every sign-in: a session planted before it is worth nothing.
            let ended = try await accounts.signOut(request)
            live?.announce(ended)
            var response = Response.seeOther(next)
            response.headers.add("Set-Cookie", accounts.sessionCookie(token, for: request))
            return response
        case .refused:
            page.problem = "That name and password do not match. Check both and try again."
            var response = page.response(status: .unauthorized)
            response.headers["WWW-Authenticate"] = #"Bearer realm="sectional""#
            return response
        case .busy:
            page.problem = "Too many sign-ins at this moment. Try again in a second."
            var response = page.response(status: .serviceUnavailable)
            response.headers["Retry-After"] = "1"
            return response
        case .limited(let seconds):
            page.problem = "Too many attempts. Try again in " + (seconds < 60 ? "\(seconds) s." : "\(seconds / 60 + 1) minutes.")
            var response = page.response(status: .tooManyRequests)
            response.headers["Retry-After"] = String(seconds)
            return response
        }
    }

    func signOut(_ form: SignedInForm<User>) async throws -> Response {
        let request = form.request
        // Announced before the answer: a page kept for the session stops standing here at once.
        let ended = try await accounts.signOut(request)
        live?.announce(ended)
        live?.closeSession(form.session)
        var response = Response.seeOther(SignInPage.path + "?notice=signed-out")
        response.headers.add("Set-Cookie", accounts.cookie.clearing(secure: accounts.isSecure(request)))
        // Pages the browser kept to revalidate (`private, no-cache`) go with the session.
        response.headers["Clear-Site-Data"] = "\"cache\""
        return response
    }
}
