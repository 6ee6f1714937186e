import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer

/// The finance feed: balances, alerts and credit score by default; recent
/// activity and the check-up on request; the user's saved layout instead
/// of the defaults when there is one.
struct FeedPage: ComposedPage {
    /// One reference: a request's context is copied into the page, its
    /// sections' setup and the answer, and as a value each copy retained
    /// and released each of its strings.
    final class Context: Sendable {
        let forms: FormContext
        let checkupAnswers: [String: String]

        init(forms: FormContext, checkupAnswers: [String: String]) {
            self.forms = forms
            self.checkupAnswers = checkupAnswers
        }
    }

    let name = "feed"
    let title = "Feed"
    let heading: String? = "Your feed"
    let quiz = CheckupQuiz.standard
    let catalog: PageCatalog<Context>
    private let layouts: any LayoutStore
    private let formGuard: FormGuard
    private let logger: Logger

    init(store: any FeedStore, layouts: any LayoutStore, formGuard: FormGuard, logger: Logger = .standardError) {
        let quiz = quiz
        self.layouts = layouts
        self.formGuard = formGuard
        self.logger = logger
        catalog = PageCatalog(
            [
                .section(BalancesSection.self) { setup in BalancesSection(store: store, user: setup.context.forms.user) },
                .section(AlertsSection.self) { setup in
                    AlertsSection(store: store, forms: setup.context.forms, back: setup.address.url(for: setup.plan))
                },
                .section(CreditScoreSection.self) { setup in CreditScoreSection(store: store, user: setup.context.forms.user) },
                .section(RecentActivitySection.self) { setup in RecentActivitySection(store: store, user: setup.context.forms.user) },
                .section(NoticesSection.self) { _ in NoticesSection(store: store) },
                .section(CheckupSection.self) { setup in
                    CheckupSection(
                        quiz: quiz, answers: setup.context.checkupAnswers, formAction: setup.address.path,
                        hiddenItems: setup.plan.queryItems)
                },
            ],
            defaults: [BalancesSection.self, AlertsSection.self, CreditScoreSection.self]
        )
    }

    /// Who is signed in, and the check-up's answers.
    func context(from request: Request, visitor: SignedIn<User>?) throws(HTTPError) -> Context {
        guard let visitor else { throw .signInRequired }
        return Context(
            forms: FormContext(visitor, formGuard: formGuard), checkupAnswers: try quiz.answers(from: request.queryValues("checkup")))
    }

    func banner(for visitor: SignedIn<User>?, in site: Site) -> any HTML {
        SiteHeader(active: name, account: visitor.map { AccountMenu($0, formGuard: formGuard) })
    }

    func savedLayout(for context: Context) async -> SavedLayout {
        do {
            return try await layouts.savedLayout(of: context.forms.user, page: name)
        } catch {
            logger.warning("feed: the saved layout could not be read, showing the defaults: \(error)")
            return SavedLayout(nil, readAt: nil)
        }
    }

    func makePage(_ setup: SectionSetup<Context>) -> StackPageController {
        let page = FeedPageController(forms: setup.context.forms)
        page.addSections(from: catalog, setup)
        return page
    }
}

/// The feed's stack, with a bar under it that saves the composition shown
/// as the user's layout or resets it.
final class FeedPageController: StackPageController {
    private let forms: FormContext

    init(forms: FormContext) {
        self.forms = forms
        super.init(id: "feed", title: "Feed")
    }

    override func renderClosing(into html: inout HTMLWriter) {
        super.renderClosing(into: &html)
        guard let plan else { return }
        let hasSavedLayout = plan.baseIDs != plan.catalog.defaultIDs
        let baseStatus = hasSavedLayout ? "Showing your saved layout." : "Showing the default layout."
        html.element(Tag.aside.self, .class("layout-bar"), .aria("label", "Layout")) { html in
            // The page script shows the base text again when changes in place lead back to it.
            html.element(Tag.p.self, .class("quiet"), .data("base-status", baseStatus)) {
                $0.text(plan.isDefault ? baseStatus : "This layout is not saved.")
            }
            // Nothing to save while the page shows what a bare visit shows; the page
            // script shows it (data-hidden-at-base) once the composition changes in place.
            html.element(
                Tag.div.self,
                attributes: { attributes in
                    attributes.attribute("data-hidden-at-base")
                    if plan.isDefault { attributes.attribute("hidden") }
                }
            ) { html in
                html.write(
                    PostForm(
                        action: FeedWrites.saveLayoutPath, token: forms.token(for: FeedWrites.saveLayoutPath),
                        hidden: ("sections", plan.sectionIDs.commaSeparated), label: "Save this layout",
                        isPrimary: true))
            }
            if hasSavedLayout {
                html.write(
                    PostForm(
                        action: FeedWrites.resetLayoutPath, token: forms.token(for: FeedWrites.resetLayoutPath),
                        label: "Reset to the default layout"))
            }
        }
    }
}
