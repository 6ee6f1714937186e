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

    /// The same reads answering at once, when the store holds its data in memory.
    var immediateReads: (any ImmediateFeedReads)? { get }
}

extension FeedStore {
    /// None: reads wait (a database).
    public var immediateReads: (any ImmediateFeedReads)? { nil }
}

extension FeedStore where Self: ImmediateFeedReads {
    /// The store itself: its reads answer at once.
    public var immediateReads: (any ImmediateFeedReads)? { self }
}

/// A store whose reads answer at once, from memory (`MemoryStore`): the
/// feed's sections read it with no task of their own (`SectionLoad(atHand:)`).
/// The same reads as `FeedStore`'s, which these satisfy too.
public protocol ImmediateFeedReads: Sendable {
    func accounts(of user: UserID) throws -> [Account]
    func alerts(of user: UserID) throws -> [FeedAlert]
    func creditScore(of user: UserID) throws -> CreditScore
    func recentTransactions(of user: UserID, limit: Int) throws -> [Transaction]
}

extension SectionLoad {
    /// A section's read of `user`'s feed data: at once from a store in
    /// memory, else asked of the store beside the page's other loads.
    ///
    /// The reads are handed the user instead of capturing it: a closure that
    /// captures nothing is made without an allocation, two fewer a section.
    static func feed<Model: Sendable>(
        of user: UserID, from store: any FeedStore, atHand: @escaping @Sendable (any ImmediateFeedReads, UserID) throws -> Model,
        waiting: @escaping @Sendable (any FeedStore, UserID) async throws -> Model, deliver: @escaping (Model) -> Void
    ) -> SectionLoad {
        // Asked of the store, not cast: `as? any ImmediateFeedReads` cost 1,200 instructions a section.
        if let memory = store.immediateReads {
            return SectionLoad(atHand: { try atHand(memory, user) }, deliver: deliver)
        }
        return SectionLoad({ try await waiting(store, user) }, deliver: deliver)
    }
}

/// Each user's saved composition of a page.
public protocol LayoutStore: Sendable {
    /// The sections the user saved for `page`, in order; `nil` when none are saved.
    func savedLayout(of user: UserID, page: String) async throws -> [SectionID]?
    /// Replaces the user's layout of `page`.
    func saveLayout(_ sections: [SectionID], of user: UserID, page: String) async throws
    /// Forgets the user's layout of `page`. - Returns: whether there was one.
    func resetLayout(of user: UserID, page: String) async throws -> Bool

    /// The layout read answering at once, when the store holds layouts in memory.
    var immediateLayouts: (any ImmediateLayoutReads)? { get }
}

extension LayoutStore {
    /// None: reads wait (a database).
    public var immediateLayouts: (any ImmediateLayoutReads)? { nil }
}

/// A saved layout read at once, from memory (`MemoryStore`). The same read as `LayoutStore`'s.
public protocol ImmediateLayoutReads: Sendable {
    func savedLayout(of user: UserID, page: String) -> [SectionID]?
}
