import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer

/// `/goals`: the signed-in visitor's goals and deposits. Private, as every
/// page is unless it says otherwise: nobody signed in is sent to sign in.
struct GoalsPage: ComposedPage {
    let name = "goals"  // serves /goals, /goals/sections/{id}, /api/goals/sections and /goals/live
    let title = "Goals"
    let catalog: PageCatalog<SignedIn<User>>
    let forms: FormGuard

    init(store: SavingsStore, forms: FormGuard) {
        self.forms = forms
        catalog = PageCatalog(
            [
                .section(GoalsSection.self) { setup in GoalsSection(store: store, visitor: setup.context, forms: forms) },
                .section(DepositsSection.self) { setup in DepositsSection(store: store, user: setup.context.user) },
            ],
            defaults: [GoalsSection.self, DepositsSection.self])
    }

    func banner(for visitor: SignedIn<User>?, in site: Site) -> any HTML { Banner(visitor: visitor, forms: forms) }
}

/// The app's name, who is signed in, and the way out.
struct Banner: HTML {
    let visitor: SignedIn<User>?
    let forms: FormGuard

    func render(into html: inout HTMLWriter) {
        header(.class("banner")) {
            a(.href("/goals"), .class("brand")) { "Savings" }
            if let visitor, let session = visitor.session {
                span { visitor.user.displayName }
                let signOut = SignInRoutes.signOutPath
                PostForm(action: signOut, token: forms.formToken(for: signOut, subject: session), label: "Sign out", cssClass: "sign-out")
            }
        }.render(into: &html)
    }
}
