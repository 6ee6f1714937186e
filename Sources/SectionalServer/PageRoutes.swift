import HTTPServer
import Sectional
import Synchronization

/// A router that serves a site's composed pages and answers errors the site's way.
extension Router {
    /// Serves `page` in the site's frame: the whole page at `/NAME`
    /// (streamed or not), one section's card at `/NAME/sections/{id}`, and
    /// the composition as JSON at `/api/NAME/sections`; all of them only to
    /// someone the site's sign-in recognises, unless the page is public.
    ///
    /// Stops the program when the page is private and the site has no
    /// sign-in: a page that cannot tell who asks would show anyone's data.
    public mutating func addPage(_ page: some ComposedPage, in site: Site) {
        PageRoutes(page: page, site: site, logger: logger).register(on: &self)
    }
}

/// The three routes of a composed page. A class: the work a route hands to
/// a task captures one reference, not a copy of the page and the site.
final class PageRoutes<Page: ComposedPage>: Sendable {
    let page: Page
    let site: Site
    let logger: Logger
    /// Who asks: `nil` when the site has no sign-in, which only a public page allows.
    let signIn: (any SignIn)?
    /// The page's path and its document title, made once: joined per
    /// request, they cost 1,200 instructions a feed page.
    private let path: String
    private let documentTitle: String
    /// The site's head, with the framework's page script ahead of the app's.
    private let head: DocumentHead
    /// What is kept while the versions it was made from stand: answers'
    /// tags, visits and layouts (`PageMemos`).
    let memos: PageMemos?
    /// Live streams' renders of one card at one moment, made one.
    let renders = RenderGate()
    /// The live events made of kept cards, by card and event id: a change
    /// a thousand streams of one session show is made into an event once,
    /// and each stream after the first writes the same bytes.
    let events = SectionCache(capacity: 4 << 20)
    /// The cards live streams show, one object each however many streams
    /// show it (10,000 streams of one session keep one). Emptied past 4,096:
    /// streams keep their own.
    private let liveCards = Mutex<[String: Card]>([:])

    /// The one object of a live stream's card.
    func liveCard(_ id: SectionID, _ cacheKey: String, _ keys: Set<LiveKey>, _ page: String) -> Card {
        let name = id.rawValue + "\u{1F}" + cacheKey + "\u{1E}" + page
        return liveCards.withLock { cards in
            if let card = cards[name], card.keys == keys { return card }
            if cards.count >= 4_096 { cards.removeAll() }
            let card = Card(cacheKey: cacheKey, keys: keys, page: page)
            cards[name] = card
            return card
        }
    }
    /// The fields of its `304`s, but the tag.
    let notModifiedHeaders: (html: HTTPHeaders, description: HTTPHeaders)

    init(page: Page, site: Site, logger: Logger) {
        self.page = page
        self.site = site
        self.logger = logger
        signIn = site.signIn(readAs: Page.User.self, by: "The page '\(page.name)'")
        precondition(
            page.isPublic || signIn != nil,
            "The page '\(page.name)' is private, as pages are unless they set isPublic, and the site has no sign-in: set site.signIn, or make the page public."
        )
        path = page.path
        documentTitle = site.documentTitle(page.title)
        var head = site.head
        if site.linksPageScript { head.scripts.insert(SectionalScript.path, at: 0) }
        self.head = head
        notModifiedHeaders = Self.notModifiedHeaders(html: site.htmlHeaders)
        if let hub = site.live, let cache = site.sectionCache, cache.capacity > 0 {
            // Half of it answers kept whole (a feed page is 6 KB): about 700 at the default 32 MB.
            memos = PageMemos(capacity: cache.capacity / 4, versions: hub)
        } else {
            memos = nil
        }
    }

    func register(on router: inout Router) {
        SectionalScript.register(on: &router)
        let address = PageAddress(path: path)
        router.on(.get, address.path, replying: fullPage)
        router.on(.get, address.fragmentRoute, replying: fragment)
        router.on(.get, "/api" + address.path + "/sections", replying: description)
        if let hub = site.live {
            let stream = LiveStream(routes: self, hub: hub)
            router.get(address.path + "/live") { request in try await stream.open(request) }
        }
    }

    /// `GET /feed`: the answer kept while nothing it shows has changed, else
    /// every section loaded concurrently, sent whole or streamed.
    @Sendable func fullPage(_ request: Request) throws(HTTPError) -> Reply {
        let credential = keptCredential(in: request)
        if let kept = keptAnswer(.page, to: request, credential: credential) { return .now(kept) }
        return .later { [self] in try await fullPageResponse(request, AnswerMaking(credential: credential)) }
    }

    private func fullPageResponse(_ request: Request, _ made: AnswerMaking) async throws(HTTPError) -> Response {
        var made = made
        try await identify(request, for: .browser, made: &made)
        let visitor = made.visit.visitor(as: Page.User.self)
        // Only a message the site names: a link cannot put words in the page.
        let notice = request.queryValue("notice").flatMap { site.notices[$0] }
        let response: Response
        do {
            let context = try await page.context(from: request, visitor: visitor)
            let plan = try await plan(request, context, made: &made)
            let delivery = try delivery(for: request)
            let document = makeDocument(plan: plan, context: context, banner: page.banner(for: visitor, in: site), notice: notice)
            let cards = document.page.children
            // Every card kept: nothing to wait for, so the page goes whole, with its ETag.
            if delivery == .whole || (!cards.isEmpty && cards.allSatisfy(\.isFromCache)) {
                response = await wholePage(document, for: request, made: made)
            } else {
                response = streamedPage(TreeHandover(document), order: delivery == .outOfOrder ? .asFinished : .pageOrder)
            }
        } catch {
            // A malformed query, the visitor known: the error page keeps the page's banner, signed in.
            response = site.errorPage(error, banner: page.banner(for: visitor, in: site))
        }
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

    /// The page rendered once everything is loaded, with its ETag.
    private func wholePage(_ document: PageDocument, for request: Request, made: AnswerMaking) async -> Response {
        var html = HTMLWriter(capacity: 16 * 1024)
        let report = await document.renderWhole(loading: site.settings.loadOptions, timingCards: site.settings.serverTiming, into: &html)
        log(report)
        let response = validated(withLoadHeaders(site.html(html), document, report), for: request)
        return keeping(response, .page, request, made, cards: document.page.children)
    }

    /// The page with each section's load and render time in
    /// `Server-Timing` (unless the site turned it off) and the degraded
    /// sections named in `Sectional-Degraded`.
    private func withLoadHeaders(_ response: consuming Response, _ document: PageDocument, _ report: LoadReport) -> Response {
        if site.settings.serverTiming {
            var timing = ServerTiming()
            timing.reserveCapacity(report.outcomes.count + document.page.cardRenderTimes.count)
            for outcome in report.outcomes { timing.add(prefix: "load-", outcome.id.rawValue, outcome.duration) }
            for card in document.page.cardRenderTimes { timing.add(prefix: "render-", card.id.rawValue, card.duration) }
            response.timing = timing
        }
        if !report.failedIDs.isEmpty {
            response.headers["Sectional-Degraded"] = report.failedIDs.map(\.rawValue).joined(separator: ", ")
        }
        // Moved out, not copied: `Response` says why.
        return consume response
    }

    /// What needs no section at once, then each card as it is ready.
    private func streamedPage(_ tree: TreeHandover, order: CardOrder) -> Response {
        Response(
            headers: site.htmlHeaders,
            body: .stream(
                ResponseStream { [self] writer in
                    let report = await tree.document.stream(order, loading: site.settings.loadOptions) { writer.writeWithoutWaiting($0) }
                    log(report)
                }))
    }

    /// `GET /feed/sections/{id}`: one section in its card, for partial
    /// refresh. Its links are those of the page with the section added.
    @Sendable func fragment(_ request: Request) throws(HTTPError) -> Reply {
        let id = try sectionID(of: request)
        let credential = keptCredential(in: request)
        if let kept = keptAnswer(.fragment, to: request, credential: credential) { return .now(kept) }
        return .later { [self] in try await fragmentResponse(request, id, AnswerMaking(credential: credential)) }
    }

    private func fragmentResponse(_ request: Request, _ id: SectionID, _ made: AnswerMaking) async throws(HTTPError) -> Response {
        var made = made
        let (context, plan) = try await compose(request, for: .browser, made: &made)
        let (controller, section) = try fragmentTree(id, plan: plan, context: context)
        let report = await section.loadTree(site.settings.loadOptions)
        let response = validated(card(section, of: controller, report), for: request)
        return keeping(response, .fragment, request, made, cards: [section])
    }

    /// The section a fragment's path names.
    /// - Throws: a 404 naming the page's sections when the page has no such section.
    private func sectionID(of request: Request) throws(HTTPError) -> SectionID {
        let id = SectionID(request.parameters["id"] ?? "")
        let catalog = page.catalog.sections
        guard catalog.contains(id) else {
            let valid = catalog.ids.map(\.rawValue).joined(separator: ", ")
            throw HTTPError(.notFound, "The \(page.name) has no section '\(id)'. Valid sections: \(valid).", detail: ValidSections(catalog.ids))
        }
        return id
    }

    /// The page with the section `id` added, and that section's controller.
    private func fragmentTree(_ id: SectionID, plan: CompositionPlan, context: Page.Context) throws(HTTPError) -> (
        StackPageController, SectionController
    ) {
        let controller = makePage(plan: plan.adding(id), context: context, only: id)
        guard let section = controller.children.first(where: { $0.id == id }) else {
            throw HTTPError(.notFound, "The section '\(id)' is not on this page.")
        }
        return (controller, section)
    }

    /// A loaded section's card.
    private func card(_ section: SectionController, of controller: StackPageController, _ report: LoadReport) -> Response {
        log(report)
        var html = HTMLWriter()
        controller.renderCard(section, into: &html)
        return site.html(html)
    }

    /// `GET /api/feed/sections`: the composition as JSON, each section with
    /// the status of its load.
    @Sendable func description(_ request: Request) throws(HTTPError) -> Reply {
        let credential = keptCredential(in: request)
        if let kept = keptAnswer(.description, to: request, credential: credential) { return .now(kept) }
        return .later { [self] in try await descriptionResponse(request, AnswerMaking(credential: credential)) }
    }

    private func descriptionResponse(_ request: Request, _ made: AnswerMaking) async throws(HTTPError) -> Response {
        var made = made
        let (context, plan) = try await compose(request, for: .script, made: &made)
        let controller = makePage(plan: plan, context: context)
        let report = await controller.loadTree(site.settings.loadOptions)
        log(report)
        let response = Response.description(of: plan, at: address(context), report: report, pretty: request.hasQueryItem("pretty"))
        let validated = validated(response, for: request, varying: Self.descriptionVaries)
        return keeping(validated, .description, request, made, cards: controller.children)
    }

    /// The JSON description is asked for with a cookie or a bearer token.
    static var descriptionVaries: String { "Cookie, Authorization" }

    /// Who reads the answer to nobody signed in: a browser is sent to sign in, a script is told 401.
    enum Reader {
        case browser, script
    }

    /// Whether `visit` may see the page: someone signed in, or anyone on a public page.
    func admits(_ visit: Visit) -> Bool { visit.name != nil || page.isPublic }

    /// Who asks. On a private page, nobody is refused: the answer `reader` gets is thrown.
    /// - Parameters:
    ///   - renewing: whether the request is the visitor's own activity (`SignIn.visitor(for:renewing:)`).
    ///   - credential: the request's (`credential(in:)`), when it is kept by it.
    func visit(_ request: Request, for reader: Reader, renewing: Bool = true, credential: String? = nil) async throws(HTTPError) -> Visit {
        guard let signIn else { return .nobody }
        let visit = try await knownVisit(request, signIn, renewing: renewing, credential: credential)
        // A live stream's later check that finds them gone leaves its log naming who opened it.
        if let name = visit.name { request.log?.user = name }
        guard !admits(visit) else { return visit }
        switch reader {
        case .browser:
            throw HTTPError(.seeOther, "Sign in to see this page.", headers: ["Location": signIn.signInPath(returningTo: request)])
        case .script:
            throw signIn.unauthorized(request)
        }
    }

    /// Who asks, into what the answer is made from, with what they were read at.
    private func identify(_ request: Request, for reader: Reader, made: inout AnswerMaking) async throws(HTTPError) {
        made.visit = try await visit(request, for: reader, credential: made.credential)
        made.basis.add(made.visit.readAt)
    }

    /// Who asks, the request's context, and its composition on top of the user's saved layout.
    func compose(_ request: Request, for reader: Reader, made: inout AnswerMaking) async throws(HTTPError) -> (Page.Context, CompositionPlan) {
        try await identify(request, for: reader, made: &made)
        let context = try await page.context(from: request, visitor: made.visit.visitor(as: Page.User.self))
        return (context, try await plan(request, context, made: &made))
    }

    /// The request's composition on top of the user's saved layout.
    private func plan(_ request: Request, _ context: Page.Context, made: inout AnswerMaking) async throws(HTTPError) -> CompositionPlan {
        // Read even when the query lists its sections: links back to the bare
        // page must know that it shows the saved layout.
        let saved = await knownLayout(request, context, credential: made.credential)
        made.basis.add(saved.readAt)
        return try page.plan(from: request, saved: saved.sections)
    }

    /// The page's controller tree for `plan`; with `only`, a page that makes
    /// its sections with `addSections` makes that one alone.
    func makePage(plan: CompositionPlan, context: Page.Context, only: SectionID? = nil) -> StackPageController {
        let address = address(context)
        let controller = page.makePage(SectionSetup(context: context, plan: plan, address: address, onlySection: only))
        controller.plan = plan
        controller.address = address
        controller.heading = page.heading
        if let hub = site.live { controller.recordLiveVersions(from: hub) }
        if let cache = site.sectionCache { controller.useCache(cache, except: site.settings.uncachedSections) }
        return controller
    }

    /// The page framed by `banner` and a one-time `notice`. (Passed apart, not as
    /// one struct: a type nested in this generic one is looked up at run time.)
    private func makeDocument(plan: CompositionPlan, context: Page.Context, banner: any HTML, notice: String?) -> PageDocument {
        let controller = makePage(plan: plan, context: context)
        let root = PageShell(page: controller, banner: banner, notice: notice)
        let canonical = site.linksCanonicalURL ? controller.address?.url(for: plan) : nil
        // A page controller may title itself otherwise than its page.
        let title = controller.title == page.title ? documentTitle : site.documentTitle(controller.title)
        return PageDocument(title: title, head: head, canonicalURL: canonical, root: root, page: controller)
    }

    /// Where the page lives, with the context its links keep: `page.address(_:)` on the path made once.
    private func address(_ context: Page.Context) -> PageAddress {
        PageAddress(path: path, context: page.linkContext(context))
    }

    /// Sections that fell back are logged; the page still answers. Loads
    /// cut because the client left are no warning: nobody saw a fallback.
    private func log(_ report: LoadReport) {
        site.settings.onLoadReport?(page.name, report)
        let level: Logger.Level = Task.isCancelled ? .debug : .warning
        for outcome in report.outcomes {
            switch outcome.status {
            case .ok: continue
            case .failed(let reason): logger.log(level, "section \(outcome.id) failed to load: \(reason)")
            case .timedOut: logger.log(level, "section \(outcome.id) timed out after \(outcome.duration)")
            }
        }
    }
}
