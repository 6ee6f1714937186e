import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer

/// The visitor's goals, each with how far along it is and a button that
/// puts $50 aside. Live: a deposit made anywhere shows on every open page.
final class GoalsSection: SectionController, CatalogSection {
    static let id: SectionID = "goals"
    static let title = "Your goals"
    private let store: SavingsStore
    private let visitor: SignedIn<User>
    private let forms: FormGuard
    private var goals: [Goal] = []

    init(store: SavingsStore, visitor: SignedIn<User>, forms: FormGuard) {
        self.store = store
        self.visitor = visitor
        self.forms = forms
        super.init(id: Self.id, title: Self.title)
    }

    override var liveKeys: Set<LiveKey> { [.goals(of: visitor.user.id)] }
    // Kept rendered until a deposit changes the goals; its forms are signed for the session.
    override var cacheKey: String? { visitor.session }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store, user = visitor.user.id] in try await store.goals(of: user) }) { self.goals = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        let (forms, session) = (forms, visitor.session ?? "")
        ul(.class("goals")) {
            ForEach(goals) { goal in
                li {
                    strong { goal.name }
                    p {
                        Dollars(goal.savedCents); " of "; Dollars(goal.targetCents)
                    }
                    progress(.value(String(goal.percent)), .max("100")) {
                        goal.percent; "%"
                    }
                    let action = SavingsApp.depositPath(goal.id)
                    PostForm(
                        action: action, token: forms.formToken(for: action, subject: session), label: "Put $50 aside", labelObject: goal.name,
                        refreshes: Self.id)
                }
            }
        }.render(into: &html)
    }
}
