import SectionalAccounts
import SectionalSecurity
import SectionalServer

/// What a section needs to render a form that writes: whose data it
/// changes and how its token is signed (for this session: a token copied
/// from another visit is worth nothing).
struct FormContext: Sendable {
    let user: UserID
    /// The session's stored hash; empty for an API token's visit, whose forms cannot be posted.
    let subject: String
    let formGuard: FormGuard

    init(_ visitor: SignedIn<User>, formGuard: FormGuard) {
        user = visitor.user.id
        subject = visitor.session ?? ""
        self.formGuard = formGuard
    }

    /// The token of the form posting to `action` in this session.
    func token(for action: String) -> FormToken { formGuard.formToken(for: action, subject: subject) }

    /// The token of the form posting to `action`, signed from its parts.
    func token(for action: FormAction) -> FormToken {
        switch action {
        case .path(let path): token(for: path)
        case .record(let prefix, let number, let suffix): formGuard.formToken(forAction: prefix, number, suffix, subject: subject)
        }
    }
}

/// Who is signed in, for the banner: their name and the sign-out form.
struct AccountMenu: Sendable {
    let user: UserID
    let displayName: String
    /// The session's stored hash; `nil` for an API token's visit: it has no session to sign out of.
    private let session: String?
    private let formGuard: FormGuard

    init(_ visitor: SignedIn<User>, formGuard: FormGuard) {
        user = visitor.user.id
        displayName = visitor.user.displayName
        session = visitor.session
        self.formGuard = formGuard
    }

    /// The sign-out form's token, made only when a banner is rendered (fragments and JSON have none).
    var signOutToken: FormToken? { session.map { formGuard.formToken(for: SignInRoutes.signOutPath, subject: $0) } }
}
