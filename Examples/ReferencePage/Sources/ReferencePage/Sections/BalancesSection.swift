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

    // In place, as the cards are (`ReferenceStack` says why).
    override func render(into html: inout HTMLWriter) {
        html.element(Tag.ul.self) { html in
            html.forEach(accounts) { html, account in
                html.element(Tag.li.self) { html in
                    html.element(Tag.span.self, class: "name", text: account.name)
                    html.text(" ")
                    html.element(Tag.span.self, class: "number", text: account.number)
                    html.text(" ")
                    html.element(Tag.span.self, class: "amount") { $0.write(Dollars(account.balanceCents)) }
                }
            }
        }
        html.element(Tag.p.self, class: "total") { html in
            html.text("Total: ")
            html.write(Dollars(accounts.reduce(0) { $0 + $1.balanceCents }))
        }
    }
}
