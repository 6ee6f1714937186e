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
    /// What the page reads from its request besides composition: who is
    /// signed in (`SignedIn<User>`), a date; `Void` when nothing.
    associatedtype Context: Sendable
    /// The site's record of a signed-in person, when the page reads it: the
    /// `User` of the site's `SignIn`.
    associatedtype User: Sendable = Never

    /// The path segment: `feed` serves `/feed`, `/feed/sections/{id}` and `/api/feed/sections`.
    var name: String { get }
    /// The page's own title, shown in the document's title.
    var title: String { get }
    /// The sections the page can show, and the ones it shows when the query says nothing.
    var catalog: PageCatalog<Context> { get }
    /// The page's `<h1>`, at the top of its stack; none by default.
    var heading: String? { get }

    /// Whether the page is served to anyone, signed in or not. `false` by
    /// default: a page that says nothing is private.
    var isPublic: Bool { get }

    /// Reads the context from the request and its visitor, who is never
    /// `nil` on a private page. It comes from the request's path and query
    /// and the visitor alone: a page whose cards are all kept is answered
    /// again from what it was made of (sent again as it was, or its `304`,
    /// while the versions stand, under the visitor's credential), so a
    /// context that reads the clock or a header must keep its sections
    /// uncached (no `cacheKey`), as the day page's "today" does.
    /// - Throws: an `HTTPError`, e.g. a 400 when the query is malformed.
    func context(from request: Request, visitor: SignedIn<User>?) async throws(HTTPError) -> Context

    /// The banner above the page and its error pages: the site's by
    /// default; a page may show who is signed in there. It depends on the
    /// visitor alone, so a request whose context cannot be read (a bad
    /// query) still gets its error page under the page's own banner.
    func banner(for visitor: SignedIn<User>?, in site: Site) -> any HTML

    /// Query items every link of the page keeps, e.g. the date. None by default.
    func linkContext(_ context: Context) -> [PageAddress.QueryPair]

    /// The layout the user saved, shown when the query lists no `sections`
    /// (`add` and `remove` still apply to it); `.unsaved` by default. A page
    /// that cannot read it should log and return `SavedLayout(nil, readAt: nil)`:
    /// the defaults show.
    func savedLayout(for context: Context) async -> SavedLayout

    /// The page controller with a child for each of the plan's sections.
    /// The default is a `StackPageController` of the catalog's sections.
    func makePage(_ setup: SectionSetup<Context>) -> StackPageController
}

extension ComposedPage {
    public func linkContext(_ context: Context) -> [PageAddress.QueryPair] { [] }

    public var heading: String? { nil }

    public func savedLayout(for context: Context) async -> SavedLayout { .unsaved }

    public func banner(for visitor: SignedIn<User>?, in site: Site) -> any HTML { site.banner(name) }

    public var isPublic: Bool { false }

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
    public func context(from request: Request, visitor: SignedIn<User>?) async throws(HTTPError) {}
}

extension ComposedPage where Context == SignedIn<User> {
    /// Who is signed in: a private page whose context is its visitor needs
    /// nothing else from the request, and its sections are made for them.
    public func context(from request: Request, visitor: SignedIn<User>?) async throws(HTTPError) -> SignedIn<User> {
        guard let visitor else { throw .signInRequired }
        return visitor
    }
}

/// The sections a page has: the detail of an error about a section id.
/// A JSON error lists them as `validSections`.
public struct ValidSections: HTTPErrorDetail, Equatable {
    /// Every section the page has, in catalog order.
    public var validSections: [SectionID]

    /// The detail listing `ids`.
    public init(_ ids: [SectionID]) { validSections = ids }
}

/// A user's saved layout of a page, as the page read it.
public struct SavedLayout: Sendable {
    /// The sections saved, in order; `nil` when none are.
    public var sections: [SectionID]?
    /// The versions it was read at (the live key its store raises with
    /// every save); `nil` when the page cannot tell, and then an answer
    /// showing it is never confirmed without being made again.
    public var readAt: ReadStamp?

    /// `sections`, read at `readAt`.
    public init(_ sections: [SectionID]?, readAt: ReadStamp?) {
        self.sections = sections
        self.readAt = readAt
    }

    /// A page that saves no layouts: nothing read, nothing that can change.
    public static let unsaved = SavedLayout(nil, readAt: ReadStamp())
}
