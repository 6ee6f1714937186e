import HTTPServer
import Sectional

/// Serves a composed page three ways: the whole page, one section's
/// fragment, and the JSON description of its composition.
struct PageRoutes<Page: ComposedPage> {
    let page: Page
    let logger: Logger

    func register(on router: inout Router) {
        router.get(page.path) { request in try await fullPage(request) }
        router.get(page.path + "/sections/{id}") { request in try await fragment(request) }
        router.getImmediately("/api" + page.path + "/sections") { request in try description(request) }
    }

    /// `GET /feed`: every section loaded concurrently, in the app shell.
    func fullPage(_ request: Request) async throws(HTTPError) -> Response {
        let (controller, _) = try makePage(for: request)
        await load(controller)
        var html = HTMLWriter(capacity: 16 * 1024)
        AppShellController(page: controller, active: page.name).renderDocument(into: &html)
        return .html(html)
    }

    /// `GET /feed/sections/{id}`: one section in its card, for partial
    /// refresh. Its links are those of the page with the section added.
    func fragment(_ request: Request) async throws(HTTPError) -> Response {
        let id = request.parameters["id"] ?? ""
        guard page.catalog.contains(id) else {
            throw HTTPError(.notFound, "The \(page.name) has no section '\(id)'. Valid sections: \(page.catalog.ids.joined(separator: ", ")).",
                            details: ["validSections": page.catalog.ids])
        }
        let (controller, _) = try makePage(for: request, adding: id)
        guard let section = controller.children.first(where: { $0.id == id }) else {
            throw HTTPError(.notFound, "The section '\(id)' is not on this page.")
        }
        await load(section)
        var html = HTMLWriter()
        controller.renderSection(section, into: &html)
        return .html(html)
    }

    /// `GET /api/feed/sections`: the composition as JSON.
    func description(_ request: Request) throws(HTTPError) -> Response {
        let plan = try page.plan(from: request)
        let context = try page.context(from: request)
        return .json(PageDescription(plan: plan, address: page.address(context)), pretty: request.hasQueryItem("pretty"))
    }

    private func makePage(for request: Request, adding id: String? = nil) throws(HTTPError) -> (StackPageController, CompositionPlan) {
        var plan = try page.plan(from: request)
        if let id { plan = plan.adding(id) }
        let context = try page.context(from: request)
        let controller = page.makePage(plan: plan, context: context)
        controller.plan = plan
        controller.address = page.address(context)
        return (controller, plan)
    }

    /// Loads a tree; a section that failed shows its fallback and is logged here.
    private func load(_ controller: SectionController) async {
        let report = await controller.loadTree()
        for outcome in report.outcomes {
            if case .failed(let reason) = outcome.status {
                logger.log("section \(outcome.id) failed to load: \(reason)")
            }
        }
    }
}
