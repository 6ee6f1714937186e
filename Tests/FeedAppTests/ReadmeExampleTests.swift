import HTTPServer
import Sectional
import SectionalServer
import SectionalTesting
import Testing

@testable import FeedApp

/// The section the README shows, verbatim: it must compile and work.
final class SavingsGoalSection: SectionController, CatalogSection {
    static let id: SectionID = "savings-goal"
    static let title = "Savings goal"
    private let store: any FeedStore
    private let user: UserID
    private var accounts: [Account] = []

    init(store: any FeedStore, user: UserID) {
        self.store = store
        self.user = user
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store, user] in try await store.accounts(of: user) }) { self.accounts = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        let saved = accounts.filter { $0.name.contains("Savings") }.reduce(0) { $0 + $1.balance.cents }
        let percent = min(100, saved * 100 / 2_000_000)
        div(.class("goal")) {
            p {
                Money(cents: saved); " of $20,000.00 saved"
            }
            progress(.value(String(percent)), HTMLAttribute("max", "100")) {
                percent; "%"
            }
        }.render(into: &html)
    }
}

/// The README's page: one line of catalog per section, one line to serve it.
struct GoalsPage: ComposedPage {
    let name = "goals"
    let title = "Goals"
    let catalog: PageCatalog<Void>

    init(store: any FeedStore, user: UserID) {
        catalog = PageCatalog(
            [.section(SavingsGoalSection.self) { _ in SavingsGoalSection(store: store, user: user) }],
            defaults: [SavingsGoalSection.self]
        )
    }
}

@Suite("The README's example section and page")
struct ReadmeExampleTests {
    @Test("The section renders alone with the data a test gives it")
    func rendersAlone() async throws {
        let rendered = await RenderedSection.render(SavingsGoalSection(store: try AppData.memory().feed, user: UserID(1)))
        #expect(rendered.status == .ok)
        #expect(rendered.content.contains("$12,500.00 of $20,000.00 saved"))
        #expect(rendered.content.contains(#"<progress value="62" max="100">62%</progress>"#))
        #expect(rendered.card.hasPrefix(#"<section class="section" id="section-savings-goal""#))
    }

    @Test("The page is served at /goals, its fragment and its JSON beside it")
    func servedAsAPage() async throws {
        let site = Site(name: "Sectional", head: DocumentHead(language: "en"), home: .init(path: "/goals", label: "Back"))
        var router = Router(logger: LogCollector().logger)
        router.addPage(GoalsPage(store: try AppData.memory().feed, user: UserID(1)), in: site)
        let client = InProcessClient(router)
        #expect(try await client.get("/goals").bodyText.contains("of $20,000.00 saved"))
        #expect(try await client.get("/goals/sections/savings-goal").status == .ok)
        #expect(try await client.get("/api/goals/sections").bodyText.contains(#""id":"savings-goal""#))
    }
}
