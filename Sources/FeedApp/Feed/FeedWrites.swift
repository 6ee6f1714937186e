import HTTPServer
import Sectional
import SectionalSecurity
import SectionalServer

/// The feed's forms: dismiss and restore alerts, save and reset the layout.
/// Each is a `POST` of a form body from this site with its token, answered
/// `303 See Other` back to the page, so that reload and back never post again.
struct FeedWrites: Sendable {
    static let dismissPath = "/feed/alerts/{id}/dismiss"

    /// The dismiss form's action for the alert `id` (`/feed/alerts/2/dismiss`),
    /// in parts: written into the page and signed with no string made of it
    /// (a string, and the buffer it was written in, cost about 650
    /// instructions an alert).
    static func dismissAction(of id: Int) -> FormAction { .record("/feed/alerts/", id, "/dismiss") }
    static let restorePath = "/feed/alerts/restore"
    static let saveLayoutPath = "/feed/layout"
    static let resetLayoutPath = "/feed/layout/reset"

    let store: any FeedStore
    let layouts: any LayoutStore
    let accounts: Accounts
    let formGuard: FormGuard
    let sections: SectionCatalog
    /// Told of each committed change, so that open pages show it.
    let live: LiveHub?

    func register(on router: inout Router) {
        router.on(.post, Self.dismissPath) { request in try await dismiss(request) }
        router.on(.post, Self.restorePath) { request in try await restore(request) }
        router.on(.post, Self.saveLayoutPath) { request in try await saveLayout(request) }
        router.on(.post, Self.resetLayoutPath) { request in try await resetLayout(request) }
    }

    func dismiss(_ request: Request) async throws -> Response {
        let (user, fields) = try await checkedFields(request)
        guard let id = request.parameters["id"].flatMap({ Int($0) }), let change = try await store.dismissAlert(id, of: user) else {
            throw HTTPError(.notFound, "There is no such alert.")
        }
        live?.announce(change)
        return backToPage(fields)
    }

    func restore(_ request: Request) async throws -> Response {
        let (user, fields) = try await checkedFields(request)
        let change = try await store.restoreAlerts(of: user)
        live?.announce(change)
        return backToPage(fields)
    }

    /// Saves the `sections` field (a comma list) as the user's feed layout;
    /// the catalog's defaults are saved as no layout at all.
    func saveLayout(_ request: Request) async throws -> Response {
        let (user, fields) = try await checkedFields(request)
        guard let list = fields.first(where: { $0.name == "sections" })?.value else {
            throw HTTPError(.badRequest, "The form has no sections field.")
        }
        let plan: CompositionPlan
        do {
            plan = try CompositionPlan(catalog: sections, query: [(name: "sections", value: list)])
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
        if plan.sectionIDs == sections.defaultIDs {
            _ = try await layouts.resetLayout(of: user, page: "feed")
        } else {
            try await layouts.saveLayout(plan.sectionIDs, of: user, page: "feed")
        }
        return .seeOther("/feed")
    }

    func resetLayout(_ request: Request) async throws -> Response {
        let (user, _) = try await checkedFields(request)
        _ = try await layouts.resetLayout(of: user, page: "feed")
        return .seeOther("/feed")
    }

    /// The signed-in user and the form's fields, once the form is known to
    /// come from this site, for this form (its path: each alert's dismiss
    /// form has a token of its own) and this session.
    private func checkedFields(_ request: Request) async throws(HTTPError) -> (UserID, [QueryItem]) {
        let visitor = try await accounts.requireVisitor(request)
        guard let session = visitor.session else {
            throw HTTPError(.forbidden, "Forms are posted from a signed-in browser, not with an API token.")
        }
        let fields = try request.formFields()
        try formGuard.check(request, fields: fields, action: request.path, subject: session)
        return (visitor.user.id, fields)
    }

    private func backToPage(_ fields: [QueryItem]) -> Response {
        .seeOther(LocalRedirect.path(fields.first { $0.name == "back" }?.value, fallback: "/feed"))
    }
}

extension Response {
    /// `303 See Other` to `location`: the browser follows it with a GET.
    static func seeOther(_ location: String) -> Response {
        Response(status: .seeOther, headers: ["Location": location, "Cache-Control": "no-store"])
    }
}
