import HTTPServer
import SectionalServer

/// A form a signed-in visitor posted, checked: it came from this site, with
/// the token signed for its action and the visitor's session.
public struct SignedInForm<User: Sendable>: Sendable {
    /// The request, with its path's parameters.
    public let request: Request
    /// Who posted it.
    public let visitor: SignedIn<User>
    /// The session it was posted in: a form always has one.
    public let session: String
    /// The form's fields, its token among them.
    public let fields: [QueryItem]

    /// The first field named `name`, if any.
    public func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
}

/// Routes for forms only a signed-in visitor may post.
extension Router {
    /// Serves `POST path` (a pattern: `/feed/alerts/{id}/dismiss`) to a form
    /// only a signed-in visitor may post, and only from this site with the
    /// token `formGuard` signed for the request's path and their session.
    /// Nobody signed in is sent to sign in (303); an API token, which has no
    /// session, and a form from elsewhere or without its token are refused
    /// (403). `handle` runs only once every check has passed.
    public mutating func postSignedInForm<User: Sendable>(
        _ path: String, in site: Site, guardedBy formGuard: FormGuard,
        _ handle: @escaping @Sendable (SignedInForm<User>) async throws -> Response
    ) {
        on(.post, path) { request in
            let visitor: SignedIn<User> = try await site.requireVisitor(request)
            guard let session = visitor.session else {
                throw HTTPError(.forbidden, "Forms are posted from a signed-in browser, not with an API token.")
            }
            let fields = try request.formFields()
            try formGuard.check(request, fields: fields, action: request.path, subject: session)
            return try await handle(SignedInForm(request: request, visitor: visitor, session: session, fields: fields))
        }
    }
}
