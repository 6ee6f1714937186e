import Sectional
import SectionalAccounts
import SectionalServer

/// The visitor's last five deposits, newest first, each with its goal's name.
final class DepositsSection: SectionController, CatalogSection {
    static let id: SectionID = "deposits"
    static let title = "Recent deposits"
    private let store: SavingsStore
    private let user: User
    private var deposits: [Deposit] = []

    init(store: SavingsStore, user: User) {
        self.store = store
        self.user = user
        super.init(id: Self.id, title: Self.title)
    }

    // A goal renamed changes the card too.
    override var liveKeys: Set<LiveKey> { [.deposits(of: user.id), .goals(of: user.id)] }
    override var cacheKey: String? { user.id.description }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store, user = user.id] in try await store.recentDeposits(of: user) }) { self.deposits = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        if deposits.isEmpty {
            p(.class("quiet")) { "Nothing put aside yet." }.render(into: &html)
        } else {
            ul(.class("deposits")) {
                ForEach(deposits) { deposit in
                    li {
                        Dollars(deposit.cents); " for "; deposit.goal
                    }
                }
            }.render(into: &html)
        }
    }
}

/// Cents as dollars: `$1,250.00`.
struct Dollars: HTML {
    let cents: Int

    init(_ cents: Int) { self.cents = cents }

    func render(into html: inout HTMLWriter) {
        html.text(cents < 0 ? "-$" as StaticString : "$")
        html.writeDecimal(cents.magnitude / 100, groupingBy: ",")
        let fraction = Int(cents.magnitude % 100)
        html.text(fraction < 10 ? ".0" as StaticString : ".")
        html.writeDecimal(fraction)
    }
}
