import HTTPServer
import Sectional

/// Serves a composed page three ways: the whole page (streamed or not), one
/// section's fragment, and the JSON description of its composition.
struct PageRoutes<Page: ComposedPage> {
    let page: Page
    let settings: PageSettings
    let logger: Logger

    func register(on router: inout Router) {
        router.get(page.path) { request in try await fullPage(request) }
        router.get(page.path + "/sections/{id}") { request in try await fragment(request) }
        router.get("/api" + page.path + "/sections") { request in try await description(request) }
    }

    /// How a page is sent: whole, streamed in page order, or streamed as sections finish.
    enum Delivery {
        case whole, inOrder, outOfOrder
    }

    /// `GET /feed`: every section loaded concurrently, in the app shell.
    func fullPage(_ request: Request) async throws(HTTPError) -> Response {
        let plan = try page.plan(from: request)
        let context = try page.context(from: request)
        switch try delivery(for: request) {
        case .whole:
            return await wholePage(plan: plan, context: context)
        case .inOrder:
            return streamedPage(plan: plan, context: context, outOfOrder: false)
        case .outOfOrder:
            return streamedPage(plan: plan, context: context, outOfOrder: true)
        }
    }

    private func delivery(for request: Request) throws(HTTPError) -> Delivery {
        // A HEAD answer has no body to stream; it still carries the whole page's headers.
        guard request.method == .get else { return .whole }
        switch request.queryValue("stream") {
        case nil, "1": return settings.streaming ? .inOrder : .whole
        case "0": return .whole
        case "ooo": return .outOfOrder
        case let other?:
            throw HTTPError(.badRequest, "stream '\(other)' is not a choice; use stream=0 (whole page), 1 (in page order) or ooo (as sections finish).")
        }
    }

    /// The page rendered once everything is loaded, with `Server-Timing` per
    /// section and the degraded sections named in `Sectional-Degraded`.
    private func wholePage(plan: CompositionPlan, context: Page.Context) async -> Response {
        let (shell, controller) = makeShell(plan: plan, context: context)
        let report = await load(controller)
        var html = HTMLWriter(capacity: 16 * 1024)
        var timing = ServerTiming()
        for outcome in report.outcomes { timing.add("load-" + outcome.id, outcome.duration) }
        shell.renderDocument(into: &html) { section, duration in timing.add("render-" + section.id, duration) }
        var response = Response.html(html)
        response.headers["Server-Timing"] = timing.headerValue
        if !report.failedIDs.isEmpty {
            response.headers["Sectional-Degraded"] = report.failedIDs.joined(separator: ", ")
        }
        return response
    }

    /// The head and shell at once, then each card as soon as it (and, in page
    /// order, every card above it) is ready. The bytes in page order are
    /// exactly those of the whole page.
    private func streamedPage(plan: CompositionPlan, context: Page.Context, outOfOrder: Bool) -> Response {
        Response(headers: Response.htmlHeaders, body: .stream(ResponseStream { [self] writer in
            let (shell, controller) = makeShell(plan: plan, context: context)
            var opening = HTMLWriter()
            shell.renderDocumentOpening(outOfOrder: outOfOrder, into: &opening)
            writer.write(opening.bytes)

            var unsent = controller.children
            await load(controller) {
                var ready = HTMLWriter()
                while let index = Self.nextReady(in: unsent, outOfOrder: outOfOrder) {
                    let section = unsent.remove(at: index)
                    controller.renderSection(section, slot: outOfOrder ? section.id : nil, into: &ready)
                }
                if ready.count > 0 { writer.write(ready.bytes) }
            }
            var closing = HTMLWriter()
            shell.renderDocumentClosing(into: &closing)
            writer.write(closing.bytes)
        }))
    }

    /// The next card that may be sent: in page order only the topmost unsent
    /// one; out of order any that is ready.
    private static func nextReady(in unsent: [SectionController], outOfOrder: Bool) -> Int? {
        outOfOrder ? unsent.firstIndex(where: \.isLoadFinished) : (unsent.first?.isLoadFinished == true ? 0 : nil)
    }

    /// `GET /feed/sections/{id}`: one section in its card, for partial
    /// refresh. Its links are those of the page with the section added.
    func fragment(_ request: Request) async throws(HTTPError) -> Response {
        let id = request.parameters["id"] ?? ""
        guard page.catalog.contains(id) else {
            throw HTTPError(.notFound, "The \(page.name) has no section '\(id)'. Valid sections: \(page.catalog.ids.joined(separator: ", ")).",
                            details: ["validSections": page.catalog.ids])
        }
        let plan = try page.plan(from: request).adding(id)
        let (_, controller) = makeShell(plan: plan, context: try page.context(from: request))
        guard let section = controller.children.first(where: { $0.id == id }) else {
            throw HTTPError(.notFound, "The section '\(id)' is not on this page.")
        }
        await load(section)
        var html = HTMLWriter()
        controller.renderSection(section, into: &html)
        return .html(html)
    }

    /// `GET /api/feed/sections`: the composition as JSON, each section with
    /// the status of its load.
    func description(_ request: Request) async throws(HTTPError) -> Response {
        let plan = try page.plan(from: request)
        let context = try page.context(from: request)
        let (_, controller) = makeShell(plan: plan, context: context)
        let report = await load(controller)
        return .json(PageDescription(plan: plan, address: page.address(context), report: report), pretty: request.hasQueryItem("pretty"))
    }

    private func makeShell(plan: CompositionPlan, context: Page.Context) -> (AppShellController, StackPageController) {
        let controller = page.makePage(plan: plan, context: context)
        controller.plan = plan
        controller.address = page.address(context)
        return (AppShellController(page: controller, active: page.name), controller)
    }

    /// Loads a tree with the page's deadline and simulated faults; a section
    /// that failed shows its fallback and is logged here.
    @discardableResult
    private func load(_ controller: SectionController, onProgress: () -> Void = {}) async -> LoadReport {
        let report = await controller.loadTree(timeout: settings.sectionTimeout, intercept: settings.interceptor, onProgress: onProgress)
        for outcome in report.outcomes {
            switch outcome.status {
            case .ok: continue
            case .failed(let reason): logger.log("section \(outcome.id) failed to load: \(reason)")
            case .timedOut: logger.log("section \(outcome.id) timed out after \(outcome.duration)")
            }
        }
        return report
    }
}
