/// Where the feed's sections read their data. Sections never hard-code data:
/// production would put a bank's API behind this; the demo uses `DemoFeedStore`.
public protocol FeedStore: Sendable {
    func accounts() async throws -> [Account]
    func alerts() async throws -> [FeedAlert]
    func creditScore() async throws -> CreditScore
    /// The latest transactions, newest first.
    func recentTransactions(limit: Int) async throws -> [Transaction]
}

/// Fixed, realistic demo data, including names that must be escaped.
public struct DemoFeedStore: FeedStore {
    public init() {}

    public func accounts() async throws -> [Account] {
        [
            Account(name: "Everyday Checking", lastDigits: "4821", balance: Money(cents: 2_384_512)),
            Account(name: "High-Yield Savings", lastDigits: "0937", balance: Money(cents: 1_250_000)),
            Account(name: "Travel Rewards <Visa>", lastDigits: "5510", balance: Money(cents: -184_233)),
            Account(name: "Joint \"House\" Fund & Co", lastDigits: "7702", balance: Money(cents: 640_015)),
        ]
    }

    public func alerts() async throws -> [FeedAlert] {
        [
            FeedAlert(severity: .info, title: "Statement ready", text: "Your November statement for Everyday Checking is available."),
            FeedAlert(severity: .critical, title: "Payment due tomorrow", text: "Travel Rewards <Visa>: minimum payment of $35.00 is due on Dec 1."),
            FeedAlert(severity: .warning, title: "Large purchase", text: "A $1,249.00 charge at Tom & Jerry's Electronics was approved."),
        ]
    }

    public func creditScore() async throws -> CreditScore {
        CreditScore(score: 742, history: [688, 694, 701, 699, 707, 715, 712, 720, 726, 731, 738, 742])
    }

    public func recentTransactions(limit: Int) async throws -> [Transaction] {
        let transactions = [
            Transaction(date: Day(2026, 11, 28), merchant: "Blue Bottle Coffee", amount: Money(cents: -675)),
            Transaction(date: Day(2026, 11, 28), merchant: "Tom & Jerry's Electronics", amount: Money(cents: -124_900)),
            Transaction(date: Day(2026, 11, 27), merchant: "Payroll — ACME <Corp>", amount: Money(cents: 412_500)),
            Transaction(date: Day(2026, 11, 26), merchant: "Whole Foods Market", amount: Money(cents: -8_742)),
            Transaction(date: Day(2026, 11, 25), merchant: "City Transit", amount: Money(cents: -275)),
            Transaction(date: Day(2026, 11, 24), merchant: "\"Corner\" Bookshop", amount: Money(cents: -2_399)),
        ]
        return Array(transactions.prefix(limit))
    }
}
