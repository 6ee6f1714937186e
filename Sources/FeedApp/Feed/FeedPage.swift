import HTTPServer
import Sectional
import SectionalServer

/// The finance feed: balances, alerts and credit score by default; recent
/// activity and the check-up on request.
struct FeedPage: ComposedPage {
    struct Context: Sendable {
        var checkupAnswers: [String: String]
    }

    let name = "feed"
    let title = "Feed"
    let heading: String? = "Your feed"
    let quiz = CheckupQuiz.standard
    let catalog: PageCatalog<Context>

    init(store: any FeedStore) {
        let quiz = quiz
        catalog = PageCatalog(
            [
                .section(BalancesSection.self) { _ in BalancesSection(store: store) },
                .section(AlertsSection.self) { _ in AlertsSection(store: store) },
                .section(CreditScoreSection.self) { _ in CreditScoreSection(store: store) },
                .section(RecentActivitySection.self) { _ in RecentActivitySection(store: store) },
                .section(CheckupSection.self) { setup in
                    CheckupSection(
                        quiz: quiz, answers: setup.context.checkupAnswers, formAction: setup.address.path,
                        hiddenItems: setup.plan.queryItems)
                },
            ],
            defaults: [BalancesSection.self, AlertsSection.self, CreditScoreSection.self]
        )
    }

    func context(from request: Request) throws(HTTPError) -> Context {
        Context(checkupAnswers: try quiz.answers(from: request.queryValues("checkup")))
    }
}
