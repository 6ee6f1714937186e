import Sectional
import SectionalServer

/// The feed's live data, declared once: the tables whose rows are a user's
/// data of one kind. Sections list their keys, the schema's triggers raise
/// their versions on every change, whoever makes it.
enum LiveData {
    static let accounts = LiveTable("accounts", kind: "accounts", owner: "user_id")
    static let alerts = LiveTable("alerts", kind: "alerts", owner: "user_id")
    static let creditScores = LiveTable("credit_scores", kind: "credit-score", owner: "user_id")
    static let transactions = LiveTable("transactions", kind: "transactions", owner: "user_id")

    /// Every table a trigger watches.
    static let tables = [accounts, alerts, creditScores, transactions]
}

extension LiveKey {
    /// A user's accounts and their balances.
    static func accounts(of user: UserID) -> LiveKey { LiveData.accounts.key(of: user) }
    /// A user's alerts: dismissed, restored.
    static func alerts(of user: UserID) -> LiveKey { LiveData.alerts.key(of: user) }
    /// A user's credit score history.
    static func creditScore(of user: UserID) -> LiveKey { LiveData.creditScores.key(of: user) }
    /// A user's transactions.
    static func transactions(of user: UserID) -> LiveKey { LiveData.transactions.key(of: user) }
}
