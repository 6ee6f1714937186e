import Sectional
import SectionalAccounts
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

    /// A user's saved layouts.
    static let layouts = LiveTable("layouts", kind: "layouts", owner: "user_id")

    /// The tables of what frames a page: who is signed in, and how their page is laid out.
    static let frameTables = [AccountTables.users, AccountTables.sessions, layouts]

    /// Notices on a board every customer reads: data of no user.
    static let notices = LiveTable("notices", kind: "notices", owner: "board")
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
    /// A user's saved layouts.
    static func layouts(of user: UserID) -> LiveKey { LiveData.layouts.key(of: user) }
    /// The notices on `board`.
    static func notices(on board: String) -> LiveKey { LiveData.notices.key(of: board) }
}
