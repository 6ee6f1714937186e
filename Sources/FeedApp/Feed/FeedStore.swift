import Sectional

/// Where the feed's sections read their data and its forms write, always
/// for one user: `SQLStore` on SQLite or PostgreSQL, `MemoryStore` in memory.
public protocol FeedStore: Sendable {
    func accounts(of user: UserID) async throws -> [Account]
    /// Every alert, dismissed ones included, in the order they were raised.
    func alerts(of user: UserID) async throws -> [FeedAlert]
    func creditScore(of user: UserID) async throws -> CreditScore
    /// The latest transactions, newest first.
    func recentTransactions(of user: UserID, limit: Int) async throws -> [Transaction]

    /// Marks one of the user's alerts dismissed (again, if it already is).
    /// - Returns: `false` when the user has no alert `id`; nothing changes then.
    func dismissAlert(_ id: Int, of user: UserID) async throws -> Bool
    /// Brings back the user's dismissed alerts.
    /// - Returns: how many came back.
    func restoreAlerts(of user: UserID) async throws -> Int
}

/// Each user's saved composition of a page.
public protocol LayoutStore: Sendable {
    /// The sections the user saved for `page`, in order; `nil` when none are saved.
    func savedLayout(of user: UserID, page: String) async throws -> [SectionID]?
    /// Replaces the user's layout of `page`.
    func saveLayout(_ sections: [SectionID], of user: UserID, page: String) async throws
    /// Forgets the user's layout of `page`. - Returns: whether there was one.
    func resetLayout(of user: UserID, page: String) async throws -> Bool
}
