import HTTPServer
import Sectional

/// A router that serves a site's composed pages and answers errors the site's way.
extension Router {
    /// Serves `page` in the site's frame: the whole page at `/NAME`
    /// (streamed or not), one section's card at `/NAME/sections/{id}`, and
    /// the composition as JSON at `/api/NAME/sections`.
    public mutating func addPage(_ page: some ComposedPage, in site: Site) {
        PageRoutes(page: page, site: site, logger: logger).register(on: &self)
    }
}

/// The three routes of a composed page.
struct PageRoutes<Page: ComposedPage>: Sendable {
    let page: Page
    let site: Site
    let logger: Logger

    func register(on router: inout Router) {
        let address = PageAddress(path: page.path)
        router.get(address.path) { request in try await fullPage(request) }
        router.get(address.fragmentRoute) { request in try await fragment(request) }
        router.get("/api" + address.path + "/sections") { request in try await description(request) }
        if let hub = site.live {
            let stream = LiveStream(page: page, site: site, hub: hub, logger: logger)
            router.get(address.path + "/live") { request in try await stream.open(request) }
        }
    }

    /// `GET /feed`: every section loaded concurrently, sent whole or streamed.
    func fullPage(_ request: Request) async throws(HTTPError) -> Response {
        let (context, plan) = try await compose(request)
        var response: Response
        switch try delivery(for: request) {
        case .whole: response = await wholePage(plan: plan, context: context)
        case .inOrder: response = streamedPage(plan: plan, context: context, order: .pageOrder)
        case .outOfOrder: response = streamedPage(plan: plan, context: context, order: .asFinished)
        }
        response.logUser = page.logUser(context)
        return response
    }

    private enum Delivery {
        case whole, inOrder, outOfOrder
    }

    private func delivery(for request: Request) throws(HTTPError) -> Delivery {
        // A HEAD answer has no body to stream; it still carries the whole page's headers.
        guard request.method == .get else { return .whole }
        switch request.queryValue("stream") {
        case nil, "1": return site.settings.streaming ? .inOrder : .whole
        case "0": return .whole
        case "ooo": return .outOfOrder
        case let other?:
            throw HTTPError(
                .badRequest, "stream '\(other)' is not a choice; use stream=0 (whole page), 1 (in page order) or ooo (as sections finish).")
        }
    }

    /// The page rendered once everything is loaded, with each section's
    /// load and render time in `Server-Timing` and the degraded sections
    /// named in `Sectional-Degraded`.
    private func wholePage(plan: CompositionPlan, context: Page.Context) async -> Response {
        let document = makeDocument(plan: plan, context: context)
        var html = HTMLWriter(capacity: 16 * 1024)
        let report = await document.renderWhole(loading: site.settings.loadOptions, into: &html)
        log(report)
        var timing = ServerTiming()
        timing.reserveCapacity(report.outcomes.count + document.page.cardRenderTimes.count)
        for outcome in report.outcomes { timing.add(prefix: "load-", outcome.id.rawValue, outcome.duration) }
        for card in document.page.cardRenderTimes { timing.add(prefix: "render-", card.id.rawValue, card.duration) }
        var response = site.html(html)
        response.timing = timing
        if !report.failedIDs.isEmpty {
            response.headers["Sectional-Degraded"] = report.failedIDs.map(\.rawValue).joined(separator: ", ")
        }
        return response
    }

    /// What needs no section at once, then each card as it is ready.
    private func streamedPage(plan: CompositionPlan, context: Page.Context, order: CardOrder) -> Response {
        Response(
            headers: site.htmlHeaders,
            body: .stream(
                ResponseStream { [self] writer in
                    let document = makeDocument(plan: plan, context: context)
                    let report = await document.stream(order, loading: site.settings.loadOptions) { writer.write($0) }
                    log(report)
                }))
    }

    /// `GET /feed/sections/{id}`: one section in its card, for partial
    /// refresh. Its links are those of the page with the section added.
    func fragment(_ request: Request) async throws(HTTPError) -> Response {
        let id = SectionID(request.parameters["id"] ?? "")
        let catalog = page.catalog.sections
        guard catalog.contains(id) else {
            let valid = catalog.ids.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(.notFound, "The \(page.name) has no section '\(id)'. Valid sections: \(valid).", detail: ValidSections(catalog.ids))
        }
        let (context, plan) = try await compose(request)
        let controller = makePage(plan: plan.adding(id), context: context, only: id)
        guard let section = controller.children.first(where: { $0.id == id }) else {
            throw HTTPError(.notFound, "The section '\(id)' is not on this page.")
        }
        log(await section.loadTree(site.settings.loadOptions))
        var html = HTMLWriter()
        controller.renderCard(section, into: &html)
        var response = site.html(html)
        response.logUser = page.logUser(context)
        return response
    }

    /// `GET /api/feed/sections`: the composition as JSON, each section with
    /// the status of its load.
    func description(_ request: Request) async throws(HTTPError) -> Response {
        let (context, plan) = try await compose(request)
        let report = await makePage(plan: plan, context: context).loadTree(site.settings.loadOptions)
        log(report)
        var response = Response.description(
            of: plan, at: page.address(context), report: report, pretty: request.hasQueryItem("pretty"))
        response.logUser = page.logUser(context)
        return response
    }

    /// The request's context, and its composition on top of the user's saved layout.
    func compose(_ request: Request) async throws(HTTPError) -> (Page.Context, CompositionPlan) {
        let context = try await page.context(from: request)
        // Read even when the query lists its sections: links back to the bare
        // page must know that it shows the saved layout.
        let saved = await page.savedLayout(for: context)
        return (context, try page.plan(from: request, saved: saved))
    }

    /// The page's controller tree for `plan`; with `only`, a page that makes
    /// its sections with `addSections` makes that one alone.
    func makePage(plan: CompositionPlan, context: Page.Context, only: SectionID? = nil) -> StackPageController {
        let address = page.address(context)
        let controller = page.makePage(SectionSetup(context: context, plan: plan, address: address, onlySection: only))
        controller.plan = plan
        controller.address = address
        controller.heading = page.heading
        if let hub = site.live {
            // The versions before anything loads: a change during the load then shows as newer than the card.
            let before = controller.children.compactMap { child in
                child.liveKeys.isEmpty ? nil : (id: child.id, version: LiveHub.version(of: child.liveKeys, in: hub))
            }
            controller.liveVersion = { section in
                if let known = before.first(where: { $0.id == section.id }) { return known.version }
                return section.liveKeys.isEmpty ? nil : LiveHub.version(of: section.liveKeys, in: hub)
            }
        }
        return controller
    }

    private func makeDocument(plan: CompositionPlan, context: Page.Context) -> PageDocument {
        let controller = makePage(plan: plan, context: context)
        let shell = PageShell(page: controller, banner: page.banner(context, in: site))
        let canonical = site.linksCanonicalURL ? controller.address?.url(for: plan) : nil
        return PageDocument(title: site.documentTitle(controller.title), head: site.head, canonicalURL: canonical, root: shell, page: controller)
    }

    /// Sections that fell back are logged; the page still answers.
    private func log(_ report: LoadReport) {
        site.settings.onLoadReport?(page.name, report)
        for outcome in report.outcomes {
            switch outcome.status {
            case .ok: continue
            case .failed(let reason): logger.log("section \(outcome.id) failed to load: \(reason)")
            case .timedOut: logger.log("section \(outcome.id) timed out after \(outcome.duration)")
            }
        }
    }
}
