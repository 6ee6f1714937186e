import Sectional
import Testing
@testable import FeedApp

/// The section the README shows, verbatim: it must compile and work.
final class SavingsGoalSection: SectionController {
    private let store: any FeedStore
    private var accounts: [Account] = []

    init(store: any FeedStore) {
        self.store = store
        super.init(id: "savings-goal", title: "Savings goal")
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store] in try await store.accounts() }) { self.accounts = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        let saved = accounts.filter { $0.name.contains("Savings") }.reduce(0) { $0 + $1.balance.cents }
        let percent = min(100, saved * 100 / 2_000_000)
        div(.class("goal")) {
            p { "\(Money(cents: saved).formatted) of $20,000.00 saved" }
            progress(.value(String(percent)), HTMLAttribute("max", "100")) { "\(percent)%" }
        }.render(into: &html)
    }
}

@Suite("The README's example section")
struct ReadmeExampleTests {
    @Test("loads through its store and renders in a stack page")
    func rendersInAPage() async {
        let page = StackPageController(id: "feed", title: "Feed")
        page.addChild(SavingsGoalSection(store: DemoFeedStore()))
        await page.loadTree()
        var writer = HTMLWriter()
        page.render(into: &writer)
        let html = writer.withBytes { String(decoding: $0, as: UTF8.self) }
        #expect(html.contains("$12,500.00 of $20,000.00 saved"))
        #expect(html.contains(#"<progress value="62" max="100">62%</progress>"#))
    }
}
