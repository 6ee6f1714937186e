import HTTPServer
import Sectional

/// A page composed from a catalog of sections: what the routes need to know
/// to serve it as a page, as fragments and as JSON.
protocol ComposedPage: Sendable {
    /// What the page reads from its query besides composition, e.g. a date.
    associatedtype Context: Sendable

    /// The path segment: `feed` serves `/feed`, `/feed/sections/{id}` and `/api/feed/sections`.
    var name: String { get }
    var catalog: SectionCatalog { get }

    /// - Throws: a 400 `HTTPError` when the query's context is malformed.
    func context(from request: Request) throws(HTTPError) -> Context

    /// Query items every link of the page keeps, e.g. the date.
    func linkContext(_ context: Context) -> [PageAddress.QueryPair]

    /// The page controller with a child for each of `plan`'s sections.
    func makePage(plan: CompositionPlan, context: Context) -> StackPageController
}

extension ComposedPage {
    var path: String { "/" + name }

    func address(_ context: Context) -> PageAddress {
        PageAddress(path: path, context: linkContext(context))
    }

    /// The composition a request asks for.
    /// - Throws: a 400 `HTTPError` naming unknown and valid sections.
    func plan(from request: Request) throws(HTTPError) -> CompositionPlan {
        do {
            return try CompositionPlan(catalog: catalog, query: request.query.lazy.map { ($0.name, $0.value) })
        } catch {
            throw HTTPError(.badRequest, error.description, details: ["validSections": error.validIDs])
        }
    }
}
