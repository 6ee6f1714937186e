import HTTPServer
import Sectional

extension PageRoutes {
    /// What a page, fragment or description answered in full carries: it is
    /// the user's alone and may be kept by their browser, which asks again
    /// before each use (`If-None-Match`) and is told `304` when nothing changed.
    static var revalidatedCacheControl: String { "private, no-cache" }

    /// `response` with its content's `ETag`, or a `304` when the request
    /// names that tag already. The answer depends on who asks: `varying`
    /// names the fields that say so.
    func validated(_ response: consuming Response, for request: Request, varying: String = "Cookie") -> Response {
        guard response.status == .ok else { return consume response }  // `Response` says why
        // Vary, ETag and a new Cache-Control: the site's headers copied once, with room for them.
        response.headers.makeRoom(forFields: 3, bytes: 128)
        response.headers.add("Vary", varying)  // the site's headers name none
        return response.validated(for: request, cacheControl: Self.revalidatedCacheControl)
    }
}

/// A page's controller tree, made in the request's task and handed to its
/// stream's task, which alone uses it from then on: the request's task
/// returns the response without touching the tree again. (A tree is not
/// `Sendable`: no two tasks may use one at once.)
final class TreeHandover: @unchecked Sendable {
    let document: PageDocument

    init(_ document: PageDocument) { self.document = document }
}
