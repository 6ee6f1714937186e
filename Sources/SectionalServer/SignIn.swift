import HTTPServer
import Sectional

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
    /// The versions the sign-in read them at, and when that stops holding
    /// (the session's next renewal or its end): a request with the same
    /// credential is the same visitor while it holds, so an answer made for
    /// them can be confirmed without reading again. `nil`: never confirmed.
    public var readAt: ReadStamp?

    /// `user`, named `name` in logs and limits, visiting in `session`, read at `readAt`.
    public init(user: User, name: String, session: String? = nil, readAt: ReadStamp? = nil) {
        self.user = user
        self.name = name
        self.session = session
        self.readAt = readAt
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

    /// What in `request` says who sends it, read without looking anything
    /// up: the session cookie's token, an API token; `""` when it carries
    /// none (nobody is signed in). An answer kept for a credential is
    /// confirmed only to a request carrying the same, and only while the
    /// visitor's `readAt` holds. `nil` by default: never confirmed.
    func credential(in request: Request) -> String?

    /// The answer a script gets when nobody is signed in (the JSON
    /// description, a live stream): by default a 401 with a `Bearer` challenge.
    func unauthorized(_ request: Request) -> HTTPError

    /// Who sent `request`, as the framework keeps them: given to every
    /// sign-in, not written by it.
    func visit(for request: Request, renewing: Bool) async throws(HTTPError) -> Visit
}

extension SignIn {
    public func credential(in request: Request) -> String? { nil }

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
        guard let signIn = signIn(readAs: User.self, by: "The route " + request.path) else {
            preconditionFailure("The route \(request.path) needs a visitor and the site has no sign-in: set site.signIn.")
        }
        let visit = try await signIn.visit(for: request, renewing: true)
        request.log?.user = visit.name
        guard let visitor = visit.visitor(as: User.self) else {
            throw HTTPError(.seeOther, "Sign in first.", headers: ["Location": signIn.signInPath(returningTo: request)])
        }
        return visitor
    }
}

/// Who a request comes from, as the framework keeps them whatever the
/// app's `User` is: their record, their name for the log and the live
/// limits, their session.
public struct Visit: Sendable {
    /// The sign-in's record of them, in a `UserBox` of the sign-in's `User`; `nil` for nobody.
    let user: (any AnyObject & Sendable)?
    /// Their name (`SignedIn.name`); `nil` for nobody.
    let name: String?
    /// Their session (`SignedIn.session`).
    let session: String?
    /// What the sign-in read them at (`SignedIn.readAt`).
    let readAt: ReadStamp?

    /// Nobody signed in: which nothing read can change, for the same credential.
    static let nobody = Visit(user: nil, name: nil, session: nil, readAt: ReadStamp())

    /// The visitor as a page that reads a `User` gets them; `nil` for nobody,
    /// or for a page that reads none.
    func visitor<User: Sendable>(as type: User.Type) -> SignedIn<User>? {
        // A class's cast: a struct's, out of an existential, cost about 700 instructions a request.
        guard let name, let box = user as? UserBox<User> else { return nil }
        return SignedIn(user: box.user, name: name, session: session, readAt: readAt)
    }
}

/// A sign-in's record of a visitor, held by a `Visit`.
final class UserBox<User: Sendable>: Sendable {
    let user: User
    init(_ user: User) { self.user = user }
}

extension SignIn {
    /// The framework's way in, which an app does not implement: each
    /// conformance gets this, compiled for its own `User`, so that asking a
    /// site's sign-in looks no generic type up at run time (several a
    /// request, a few thousand instructions, when asked through the
    /// protocol's generic `visitor(for:renewing:)`).
    public func visit(for request: Request, renewing: Bool) async throws(HTTPError) -> Visit {
        guard let found = try await visitor(for: request, renewing: renewing) else { return .nobody }
        return Visit(user: UserBox(found.user), name: found.name, session: found.session, readAt: found.readAt)
    }
}

extension Site {
    /// The site's sign-in, for a reader (a page, a form's route) of the
    /// visitor as a `User`; `nil` when the site has none. Stops the program
    /// when the reader reads a user of another type than the sign-in makes:
    /// a mistake of the app's, seen at start.
    func signIn<User>(readAs user: User.Type, by reader: String) -> (any SignIn)? {
        guard let signIn else { return nil }
        func made<S: SignIn>(by signIn: S) -> Any.Type { S.User.self }
        precondition(
            User.self == Never.self || made(by: signIn) == User.self,
            "\(reader) reads a \(User.self) but the site's sign-in makes a \(made(by: signIn)).")
        return signIn
    }
}
