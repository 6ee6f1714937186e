import HTTPServer
import Sectional
import SectionalAccounts
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
    /// Whose forms these are: the site's sign-in.
    let site: Site
    let formGuard: FormGuard
    let sections: SectionCatalog
    /// Told of each committed change, so that open pages show it.
    let live: LiveHub?

    func register(on router: inout Router) {
        router.postSignedInForm(Self.dismissPath, in: site, guardedBy: formGuard) { form in try await dismiss(form) }
        router.postSignedInForm(Self.restorePath, in: site, guardedBy: formGuard) { form in try await restore(form) }
        router.postSignedInForm(Self.saveLayoutPath, in: site, guardedBy: formGuard) { form in try await saveLayout(form) }
        router.postSignedInForm(Self.resetLayoutPath, in: site, guardedBy: formGuard) { form in try await resetLayout(form) }
    }

    func dismiss(_ form: SignedInForm<User>) async throws -> Response {
        let user = form.visitor.user.id
        guard let id = form.request.parameters["id"].flatMap({ Int($0) }), let change = try await store.dismissAlert(id, of: user) else {
            throw HTTPError(.notFound, "There is no such alert.")
        }
        live?.announce(change)
        return backToPage(form)
    }

    func restore(_ form: SignedInForm<User>) async throws -> Response {
        let change = try await store.restoreAlerts(of: form.visitor.user.id)
        live?.announce(change)
        return backToPage(form, notice: change == nil ? nil : "alerts-restored")
    }

    /// Saves the `sections` field (a comma list) as the user's feed layout;
    /// the catalog's defaults are saved as no layout at all.
    func saveLayout(_ form: SignedInForm<User>) async throws -> Response {
        let user = form.visitor.user.id
        guard let list = form.field("sections") else {
            throw HTTPError(.badRequest, "The form has no sections field.")
        }
        let plan: CompositionPlan
        do {
            plan = try CompositionPlan(catalog: sections, query: [(name: "sections", value: list)])
        } catch {
            throw HTTPError(.badRequest, error.description)
        }
        // Written first, then announced: with no hub, `live?.announce(try await …)` would skip the write.
        let change =
            plan.sectionIDs == sections.defaultIDs
            ? try await layouts.resetLayout(of: user, page: "feed") : try await layouts.saveLayout(plan.sectionIDs, of: user, page: "feed")
        live?.announce(change)
        return .seeOther("/feed?notice=layout-saved")
    }

    func resetLayout(_ form: SignedInForm<User>) async throws -> Response {
        let change = try await layouts.resetLayout(of: form.visitor.user.id, page: "feed")
        live?.announce(change)
        return .seeOther("/feed?notice=layout-reset")
    }

    /// The notices the feed's forms leave, by the name their 303 carries (`Site.notices`).
    static let notices = [
        "layout-saved": "Your layout is saved: a visit to your feed shows it from now on.",
        "layout-reset": "Your feed is back to the default layout.",
        "alerts-restored": "Your dismissed alerts are back.",
        "signed-out": "You are signed out.",
    ]

    /// `303` to the page the form came from, with a one-time notice when it says one.
    private func backToPage(_ form: SignedInForm<User>, notice: String? = nil) -> Response {
        let path = LocalRedirect.path(form.field("back"), fallback: "/feed")
        guard let notice else { return .seeOther(path) }
        return .seeOther(path + (path.contains("?") ? "&" : "?") + "notice=" + notice)
    }
}
