import HTTPServer
import Sectional

/// The finance feed: balances, alerts and credit score by default; recent
/// activity and the check-up on request.
struct FeedPage: ComposedPage {
    struct Context: Sendable {
        var checkupAnswers: [String: String]
    }

    let store: any FeedStore
    let quiz = CheckupQuiz.standard
    let name = "feed"

    let catalog = SectionCatalog(
        entries: [
            .init(id: BalancesSection.id, title: "Balances"),
            .init(id: AlertsSection.id, title: "Alerts"),
            .init(id: CreditScoreSection.id, title: "Credit score"),
            .init(id: RecentActivitySection.id, title: "Recent activity"),
            .init(id: CheckupSection.id, title: "Financial check-up"),
        ],
        defaultIDs: [BalancesSection.id, AlertsSection.id, CreditScoreSection.id]
    )

    func context(from request: Request) throws(HTTPError) -> Context {
        Context(checkupAnswers: try quiz.answers(from: request.queryValues("checkup")))
    }

    /// Check-up answers are not kept on links: adding or removing a section starts the quiz afresh.
    func linkContext(_ context: Context) -> [PageAddress.QueryPair] { [] }

    func makePage(plan: CompositionPlan, context: Context) -> StackPageController {
        let page = StackPageController(id: name, title: "Feed")
        for id in plan.sectionIDs {
            page.addChild(makeSection(id, plan: plan, context: context))
        }
        return page
    }

    private func makeSection(_ id: String, plan: CompositionPlan, context: Context) -> SectionController {
        switch id {
        case BalancesSection.id: BalancesSection(store: store)
        case AlertsSection.id: AlertsSection(store: store)
        case CreditScoreSection.id: CreditScoreSection(store: store)
        case RecentActivitySection.id: RecentActivitySection(store: store)
        case CheckupSection.id:
            CheckupSection(quiz: quiz, answers: context.checkupAnswers, formAction: path, hiddenItems: plan.queryItems)
        default: preconditionFailure("'\(id)' is not in the feed's catalog")
        }
    }
}
