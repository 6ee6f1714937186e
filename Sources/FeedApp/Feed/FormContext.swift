import SectionalSecurity

/// What a section needs to render a form that writes: whose data it
/// changes and how its token is signed.
struct FormContext: Sendable {
    let user: UserID
    let formGuard: FormGuard

    /// The token of the form posting to `action` for this user.
    func token(for action: String) -> String { formGuard.token(for: action, subject: user.description) }
}
