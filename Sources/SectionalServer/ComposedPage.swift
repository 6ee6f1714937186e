import HTTPServer
import Sectional

/// A page composed from a catalog of sections: all an app declares for
/// `router.addPage(_:in:)` to serve it whole or streamed, as fragments and
/// as JSON.
///
/// ```swift
/// struct FeedPage: ComposedPage {
///     let name = "feed"
///     let title = "Feed"
///     let catalog: PageCatalog<Void>
///
///     init(store: any FeedStore) {
///         catalog = PageCatalog(
///             [.section(BalancesSection.self) { _ in BalancesSection(store: store) }],
///             defaults: [BalancesSection.self])
///     }
/// }
/// ```
public protocol ComposedPage: Sendable {
    /// What the page reads from its query besides composition, e.g. a date;
    /// `Void` when nothing.
    associatedtype Context: Sendable

    /// The path segment: `feed` serves `/feed`, `/feed/sections/{id}` and `/api/feed/sections`.
    var name: String { get }
    /// The page's own title, shown in the document's title.
    var title: String { get }
    /// The sections the page can show, and the ones it shows when the query says nothing.
    var catalog: PageCatalog<Context> { get }
    /// The page's `<h1>`, at the top of its stack; none by default.
    var heading: String? { get }

    /// Reads the context from the request: its query, and who is asking
    /// (a session's lookup may wait, so this may too).
    /// - Throws: an `HTTPError`: a 400 when the query is malformed, or the
    ///   answer a visitor who must sign in gets (e.g. a 303 with `Location`).
    func context(from request: Request) async throws(HTTPError) -> Context

    /// The banner above the page: the site's by default; a page may show
    /// what its context knows there, such as who is signed in.
    func banner(_ context: Context, in site: Site) -> any HTML

    /// Who asked, as the access log names them (a user id); none by default.
    func logUser(_ context: Context) -> String?

    /// The visit's session, if any: signing out of it ends its live streams.
    func liveSession(_ context: Context) -> String?

    /// Query items every link of the page keeps, e.g. the date. None by default.
    func linkContext(_ context: Context) -> [PageAddress.QueryPair]

    /// The layout the user saved, shown when the query lists no `sections`
    /// (`add` and `remove` still apply to it); none by default. A page that
    /// cannot read it should log and return `nil`: the defaults show.
    func savedLayout(for context: Context) async -> [SectionID]?

    /// The page controller with a child for each of the plan's sections.
    /// The default is a `StackPageController` of the catalog's sections.
    func makePage(_ setup: SectionSetup<Context>) -> StackPageController
}

extension ComposedPage {
    public func linkContext(_ context: Context) -> [PageAddress.QueryPair] { [] }

    public var heading: String? { nil }

    public func savedLayout(for context: Context) async -> [SectionID]? { nil }

    public func banner(_ context: Context, in site: Site) -> any HTML { site.banner(name) }

    public func logUser(_ context: Context) -> String? { nil }

    public func liveSession(_ context: Context) -> String? { nil }

    public func makePage(_ setup: SectionSetup<Context>) -> StackPageController {
        let page = StackPageController(id: SectionID(name), title: title)
        page.addSections(from: catalog, setup)
        return page
    }

    /// `/feed` for the page named `feed`.
    public var path: String { "/" + name }

    /// Where the page lives, with the context its links keep.
    public func address(_ context: Context) -> PageAddress {
        PageAddress(path: path, context: linkContext(context))
    }

    /// The composition a request asks for, starting from `saved` when its query lists no sections.
    /// - Throws: a 400 `HTTPError` naming the unknown sections, with the valid ones as its detail.
    public func plan(from request: Request, saved: [SectionID]? = nil) throws(HTTPError) -> CompositionPlan {
        do {
            return try CompositionPlan(catalog: catalog.sections, query: request.query.lazy.map { ($0.name, $0.value) }, saved: saved)
        } catch {
            throw HTTPError(.badRequest, error.description, detail: ValidSections(error.validIDs))
        }
    }
}

extension ComposedPage where Context == Void {
    /// Nothing to read: a page whose context is `Void` needs nothing from the request.
    public func context(from request: Request) async throws(HTTPError) {}
}

/// The sections a page has: the detail of an error about a section id.
/// A JSON error lists them as `validSections`.
public struct ValidSections: HTTPErrorDetail, Equatable {
    /// Every section the page has, in catalog order.
    public var validSections: [SectionID]

    /// The detail listing `ids`.
    public init(_ ids: [SectionID]) { validSections = ids }
}
