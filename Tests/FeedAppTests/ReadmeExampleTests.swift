import FeedAppTestSupport
import Foundation
import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer
import SectionalTesting
import Testing

@testable import FeedApp

/// The section the README shows, verbatim (a test below compares them): it must compile and work.
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

/// The README's page: one line of catalog per section, and whose data it shows.
struct GoalsPage: ComposedPage {
    let name = "goals"  // serves /goals, /goals/sections/{id}, /api/goals/sections
    let title = "Goals"
    let catalog: PageCatalog<UserID>

    init(store: any FeedStore) {
        catalog = PageCatalog(
            [.section(SavingsGoalSection.self) { setup in SavingsGoalSection(store: store, user: setup.context) }],
            defaults: [SavingsGoalSection.self]
        )
    }

    /// The signed-in user's goals: the page is private, so there always is one.
    func context(from request: Request, visitor: SignedIn<User>?) throws(HTTPError) -> UserID {
        guard let visitor else { throw .signInRequired }
        return visitor.user.id
    }
}

/// The app's sign-in on its site, its sign-in form, and the README's page.
private func goalsRouter(_ data: AppData) -> Router {
    let accounts = Accounts(store: data.accounts, hasher: data.hasher, settings: AccountSettings(), logger: LogCollector().logger, now: unixNow)
    var site = Site(name: "Sectional", head: DocumentHead(language: "en"), home: .init(path: "/goals", label: "Back"))
    site.signIn = accounts
    var router = Router(logger: LogCollector().logger)
    SignInRoutes(accounts: accounts, formGuard: FormGuard(key: data.formKey), site: site, live: nil).register(on: &router)
    router.addPage(GoalsPage(store: data.feed), in: site)
    return router
}

@Suite("The README's example section and page")
struct ReadmeExampleTests {
    @Test("The README shows this file's section and page, word for word")
    func readmeShowsThisCode() throws {
        let here = URL(fileURLWithPath: #filePath)
        let root = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let source = Self.code(try String(contentsOf: here, encoding: .utf8))
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let examples = blocks.filter { $0.contains("struct GoalsPage") || $0.contains("class SavingsGoalSection") }
        #expect(examples.count == 2)
        for block in examples {
            // What a page's file holds: its imports and the line that serves it are the app's.
            let declarations = block.split(separator: "\n").filter { !$0.hasPrefix("import ") && !$0.hasPrefix("router.") }
            let inThisFile = source.contains(Self.code(declarations.joined(separator: "\n")))
            #expect(inThisFile, "the README's block is not this file's code: \(block.prefix(80))")
        }
    }

    /// Code without its layout: the formatter may wrap what the README keeps on one line.
    private static func code(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }

    @Test("The section renders alone with the data a test gives it")
    func rendersAlone() async throws {
        let rendered = await RenderedSection.render(SavingsGoalSection(store: try AppData.memory().feed, user: UserID(1)))
        #expect(rendered.status == .ok)
        #expect(rendered.content.contains("$12,500.00 of $20,000.00 saved"))
        #expect(rendered.content.contains(#"<progress value="62" max="100">62%</progress>"#))
        #expect(rendered.card.hasPrefix(#"<section class="section" id="section-savings-goal""#))
    }

    @Test("The page is private: nobody is sent to sign in (a script gets a 401), and each user sees their own savings")
    func privateByDefault() async throws {
        let data = try AppData.memory()
        let client = InProcessClient(goalsRouter(data))
        for path in ["/goals", "/goals/sections/savings-goal"] {
            let anonymous = try await client.get(path)
            #expect(anonymous.status == .seeOther, "\(path)")
            #expect(anonymous.headers["Location"]?.hasPrefix("/signin?next=") == true, "\(path)")
            #expect(!anonymous.bodyText.contains("saved"), "\(path)")
        }
        let script = try await client.get("/api/goals/sections")
        #expect(script.status == .unauthorized)
        #expect(!script.bodyText.contains("savings-goal"))

        let alex = try await client.signIn(SeedData.users[0])
        let alexs = try await client.get("/goals", headers: ["Cookie": alex])
        #expect(alexs.bodyText.contains("$12,500.00 of $20,000.00 saved"))
        let sam = try await client.signIn(SeedData.users[1])
        let sams = try await client.get("/goals/sections/savings-goal", headers: ["Cookie": sam])
        #expect(sams.bodyText.contains("$4,020.00 of $20,000.00 saved"))
        #expect(!sams.bodyText.contains("$12,500.00"))
        #expect(try await client.get("/api/goals/sections", headers: ["Cookie": sam]).bodyText.contains(#""id":"savings-goal""#))
    }
}
