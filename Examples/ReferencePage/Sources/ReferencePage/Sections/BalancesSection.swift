import Sectional

/// Each account with its balance, then the total.
final class BalancesSection: SectionController, CatalogSection {
    static let id: SectionID = "balances"
    static let title = "Balances"
    private let store: any ReferenceStore
    private var accounts: [ReferenceData.Account] = []

    init(store: any ReferenceStore) {
        self.store = store
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store] in try store.accounts() }) { self.accounts = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        ul {
            ForEach(accounts) { account in
                li {
                    span(.class("name")) { account.name }
                    " "
                    span(.class("number")) { account.number }
                    " "
                    span(.class("amount")) { Dollars(account.balanceCents) }
                }
            }
        }.render(into: &html)
        p(.class("total")) {
            "Total: "
            Dollars(accounts.reduce(0) { $0 + $1.balanceCents })
        }.render(into: &html)
    }
}
