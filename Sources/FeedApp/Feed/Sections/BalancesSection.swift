import Sectional
import SectionalAccounts

/// The user's accounts with their balances and a total; negative balances marked.
final class BalancesSection: SectionController, CatalogSection {
    static let id: SectionID = "balances"
    static let title = "Balances"
    private let store: any FeedStore
    private let user: UserID
    /// Made once: a page asks for them several times a request.
    private let keys: Set<LiveKey>
    private var accounts: [Account] = []

    init(store: any FeedStore, user: UserID) {
        self.store = store
        self.user = user
        keys = [.accounts(of: user)]
        super.init(id: Self.id, title: Self.title)
    }

    override var liveKeys: Set<LiveKey> { keys }

    /// The data is the live key's, and the user's alone.
    override var cacheKey: String? { user.description }

    override func makeLoad() -> SectionLoad? {
        .feed(of: user, from: store, read: { try await $0.accounts(of: $1) }) {
            self.accounts = $0
        }
    }

    // Written in place, not built as a tree: a table's rows are the page's hottest markup.
    override func render(into html: inout HTMLWriter) {
        let total = Money(cents: accounts.reduce(0) { $0 + $1.balance.cents })
        html.element(Tag.table.self, class: "balances") { html in
            html.element(Tag.tbody.self) { html in
                html.forEach(accounts) { html, account in
                    html.element(Tag.tr.self) { html in
                        html.element(Tag.td.self) { html in
                            html.element(Tag.div.self, class: "account-name", text: account.name)
                            html.element(Tag.div.self, class: "account-number") { html in
                                html.text(Account.maskPrefix)
                                html.text(account.lastDigits)
                            }
                        }
                        let balance = account.balance
                        html.element(Tag.td.self, class: balance.isNegative ? "amount negative" : "amount") { html in
                            html.write(balance)
                            if balance.isNegative { html.element(Tag.span.self, class: "owed", text: " owed") }
                        }
                    }
                }
                html.element(Tag.tr.self, class: "total") { html in
                    html.element(Tag.th.self, text: "Total")
                    html.element(Tag.td.self, class: total.isNegative ? "amount negative" : "amount") { $0.write(total) }
                }
            }
        }
    }
}
