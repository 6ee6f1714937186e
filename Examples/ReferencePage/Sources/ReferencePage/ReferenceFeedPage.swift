import HTTPServer
import Sectional
import SectionalServer

/// The reference feed: balances, alerts and credit score, as the spec lays them out.
struct ReferenceFeedPage: ComposedPage {
    let name = "feed"
    let title = "Feed"
    /// The reference page's data is one file's, nobody's own.
    let isPublic = true
    let catalog: PageCatalog<Void>

    init(store: any ReferenceStore) {
        catalog = PageCatalog(
            [
                .section(BalancesSection.self) { _ in BalancesSection(store: store) },
                .section(AlertsSection.self) { _ in AlertsSection(store: store) },
                .section(CreditScoreSection.self) { _ in CreditScoreSection(store: store) },
            ],
            defaults: [BalancesSection.self, AlertsSection.self, CreditScoreSection.self]
        )
    }

    func makePage(_ setup: SectionSetup<Void>) -> StackPageController {
        let page = ReferenceStack(id: "feed", title: title)
        page.addSections(from: catalog, setup)
        return page
    }
}
