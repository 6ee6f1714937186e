import Sectional

/// The user's accounts with their balances and a total; negative balances marked.
final class BalancesSection: SectionController, CatalogSection {
    static let id: SectionID = "balances"
    static let title = "Balances"
    private let store: any FeedStore
    private let user: UserID
    private var accounts: [Account] = []

    init(store: any FeedStore, user: UserID) {
        self.store = store
        self.user = user
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        .feed(of: user, from: store, atHand: { try $0.accounts(of: $1) }, waiting: { try await $0.accounts(of: $1) }) {
            self.accounts = $0
        }
    }

    override func render(into html: inout HTMLWriter) {
        let total = Money(cents: accounts.reduce(0) { $0 + $1.balance.cents })
        table(.class("balances")) {
            tbody {
                ForEach(accounts) { account in
                    tr {
                        td {
                            div(.class("account-name")) { account.name }
                            div(.class("account-number")) {
                                Account.maskPrefix; account.lastDigits
                            }
                        }
                        td(.class(account.balance.isNegative ? "amount negative" : "amount")) {
                            account.balance
                            if account.balance.isNegative { span(.class("owed")) { " owed" } }
                        }
                    }
                }
                tr(.class("total")) {
                    th { "Total" }
                    td(.class(total.isNegative ? "amount negative" : "amount")) { total }
                }
            }
        }.render(into: &html)
    }
}
