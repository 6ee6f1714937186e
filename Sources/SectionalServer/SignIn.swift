import HTTPServer

/// Someone the site's sign-in recognised: what a private page's context is
/// made from.
public struct SignedIn<User: Sendable>: Sendable {
    /// The app's own record of them.
    public var user: User
    /// Names them in the access log and counts their live streams: one
    /// limit per user, whatever page they open. Their id, typically.
    public var name: String
    /// The visit's session, if it has one (an API token has none): signing
    /// out of it ends its live streams, and forms are signed for it.
    public var session: String?

    /// `user`, named `name` in logs and limits, visiting in `session`.
    public init(user: User, name: String, session: String? = nil) {
        self.user = user
        self.name = name
        self.session = session
    }
}

/// How a site knows who is asking. Set once, as `Site.signIn`: then every
/// page's whole document, fragments, JSON description and live stream needs
/// someone signed in, unless the page declares itself public.
///
/// ```swift
/// struct AppSignIn: SignIn {
///     func visitor(for request: Request, renewing: Bool) async throws(HTTPError) -> SignedIn<User>? {
///         // the session cookie's user, or the bearer token's, or nil
///     }
///     func signInPath(returningTo request: Request) -> String { "/signin?next=" + … }
/// }
/// site.signIn = AppSignIn(…)
/// ```
public protocol SignIn<User>: Sendable {
    /// The app's record of a signed-in person.
    associatedtype User: Sendable

    /// Who sent `request`, or `nil` when nobody is signed in.
    /// - Parameters:
    ///   - request: the request, with its cookies and `Authorization`.
    ///   - renewing: whether the request is the visitor's own
    ///     activity (a session's idle time starts again); a live stream's
    ///     checks that its visitor is still signed in pass `false`, so that
    ///     an open tab does not keep a session alive.
    /// - Throws: an `HTTPError`: a 401 for a credential that is not valid,
    ///   a 503 when the sessions cannot be read.
    func visitor(for request: Request, renewing: Bool) async throws(HTTPError) -> SignedIn<User>?

    /// Where a browser signs in and comes back to `request` from: a page's
    /// answer to a visitor nobody signed in is a 303 there.
    func signInPath(returningTo request: Request) -> String

    /// The answer a script gets when nobody is signed in (the JSON
    /// description, a live stream): by default a 401 with a `Bearer` challenge.
    func unauthorized(_ request: Request) -> HTTPError
}

extension SignIn {
    public func unauthorized(_ request: Request) -> HTTPError {
        HTTPError(.unauthorized, "Sign in first, or send an API token.", headers: ["WWW-Authenticate": #"Bearer realm="sectional""#])
    }
}

/// The answer a page's context gives when it has no visitor.
extension HTTPError {
    /// What a page's context throws when it needs a visitor and has none:
    /// which only a public page can be asked for.
    public static var signInRequired: HTTPError { HTTPError(.unauthorized, "Sign in to see this page.") }
}

extension Site {
    /// Who sent `request`, typed as the site's sign-in's `User`: for a
    /// route of the app's own that only a signed-in visitor may use.
    /// - Throws: the answer for nobody signed in (a 303 to sign in), or the
    ///   sign-in's own (a 401 for a credential that is not valid).
    public func requireVisitor<User: Sendable>(_ request: Request, as user: User.Type = User.self) async throws(HTTPError) -> SignedIn<User> {
        guard let lookup = VisitorLookup<User>(signIn, page: request.path) else {
            preconditionFailure("The route \(request.path) needs a visitor and the site has no sign-in: set site.signIn.")
        }
        guard let visitor = try await lookup.visit(for: request, renewing: true).visitor else {
            throw HTTPError(.seeOther, "Sign in first.", headers: ["Location": lookup.signIn.signInPath(returningTo: request)])
        }
        return visitor
    }
}

/// Who a page's request comes from, as its routes need them: the visitor
/// typed as the page's `User`, and their name and session for the log and
/// the live limits, whatever the page's `User` is.
struct Visit<User: Sendable>: Sendable {
    var visitor: SignedIn<User>?
    var name: String?
    var session: String?

    static var nobody: Visit { Visit(visitor: nil, name: nil, session: nil) }
}

/// A site's sign-in, asked on behalf of pages whose `User` is `User`.
struct VisitorLookup<User: Sendable>: Sendable {
    let signIn: any SignIn
    private let find: @Sendable (Request, Bool) async throws(HTTPError) -> Visit<User>

    /// The lookup for `page`; `nil` when the site has no sign-in.
    /// Stops the program when the page reads a user of another type than
    /// the site's sign-in makes: a mistake of the app's, seen at start.
    init?(_ signIn: (any SignIn)?, page: String) {
        guard let signIn else { return nil }
        self.signIn = signIn
        find = Self.finder(signIn, page: page)
    }

    func visit(for request: Request, renewing: Bool) async throws(HTTPError) -> Visit<User> {
        try await find(request, renewing)
    }

    private static func finder<S: SignIn>(_ signIn: S, page: String) -> @Sendable (Request, Bool) async throws(HTTPError) -> Visit<User> {
        let readsUser = User.self != Never.self
        precondition(
            !readsUser || S.User.self == User.self,
            "The page '\(page)' reads a \(User.self) but the site's sign-in makes a \(S.User.self).")
        return { request, renewing throws(HTTPError) in
            guard let found = try await signIn.visitor(for: request, renewing: renewing) else { return .nobody }
            // The types were compared above: the cast cannot fail.
            let visitor = readsUser ? found as? SignedIn<User> : nil
            return Visit(visitor: visitor, name: found.name, session: found.session)
        }
    }
}
