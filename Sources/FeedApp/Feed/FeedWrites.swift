import HTTPServer
import Sectional
import SectionalSecurity

/// The feed's forms: dismiss and restore alerts, save and reset the layout.
/// Each is a `POST` of a form body from this site with its token, answered
/// `303 See Other` back to the page, so that reload and back never post again.
struct FeedWrites: Sendable {
    static let dismissPath = "/feed/alerts/{id}/dismiss"
    static let restorePath = "/feed/alerts/restore"
    static let saveLayoutPath = "/feed/layout"
    static let resetLayoutPath = "/feed/layout/reset"

    let store: any FeedStore
    let layouts: any LayoutStore
    let user: UserID
    let formGuard: FormGuard
    let sections: SectionCatalog

    func register(on router: inout Router) {
        router.on(.post, Self.dismissPath) { request in try await dismiss(request) }
        router.on(.post, Self.restorePath) { request in try await restore(request) }
        router.on(.post, Self.saveLayoutPath) { request in try await saveLayout(request) }
        router.on(.post, Self.resetLayoutPath) { request in try await resetLayout(request) }
    }

    func dismiss(_ request: Request) async throws -> Response {
        let fields = try checkedFields(request)
        guard let id = request.parameters["id"].flatMap({ Int($0) }), try await store.dismissAlert(id, of: user) else {
            throw HTTPError(.notFound, "There is no such alert.")
        }
        return backToPage(fields)
    }

    func restore(_ request: Request) async throws -> Response {
        let fields = try checkedFields(request)
        _ = try await store.restoreAlerts(of: user)
        return backToPage(fields)
    }

    /// Saves the `sections` field (a comma list) as the user's feed layout;
    /// the catalog's defaults are saved as no layout at all.
    func saveLayout(_ request: Request) async throws -> Response {
        let fields = try checkedFields(request)
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
        _ = try checkedFields(request)
        _ = try await layouts.resetLayout(of: user, page: "feed")
        return .seeOther("/feed")
    }

    /// The form's fields once it is known to come from this site, for this
    /// form (its path: each alert's dismiss form has a token of its own) and this user.
    private func checkedFields(_ request: Request) throws(HTTPError) -> [QueryItem] {
        let fields = try request.formFields()
        try formGuard.check(request, fields: fields, action: request.path, subject: user.description)
        return fields
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
