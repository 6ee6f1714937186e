import Sectional
import SectionalAccounts

/// The latest transactions: date, merchant, amount.
final class RecentActivitySection: SectionController, CatalogSection {
    static let id: SectionID = "recent-activity"
    static let title = "Recent activity"
    private let store: any FeedStore
    private let user: UserID
    /// Made once: a page asks for them several times a request.
    private let keys: Set<LiveKey>
    private var transactions: [Transaction] = []

    init(store: any FeedStore, user: UserID) {
        self.store = store
        self.user = user
        keys = [.transactions(of: user)]
        super.init(id: Self.id, title: Self.title)
    }

    override var liveKeys: Set<LiveKey> { keys }

    /// The data is the live key's, and the user's alone.
    override var cacheKey: String? { user.description }

    override func makeLoad() -> SectionLoad? {
        .feed(
            of: user, from: store, read: { try await $0.recentTransactions(of: $1, limit: 6) }
        ) { self.transactions = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        table(.class("activity")) {
            tbody {
                ForEach(transactions) { transaction in
                    tr {
                        td(.class("date")) {
                            time(.datetime(transaction.date.description)) {
                                transaction.date.shortMonthName
                                " "
                                transaction.date.day
                            }
                        }
                        td { transaction.merchant }
                        td(.class(transaction.amount.isNegative ? "amount" : "amount positive")) { transaction.amount }
                    }
                }
            }
        }.render(into: &html)
    }
}
