import Sectional
import SectionalAccounts
import SectionalServer

/// Where the feed's sections read their data and its forms write, always
/// for one user: `SQLStore` on SQLite or PostgreSQL.
public protocol FeedStore: Sendable {
    func accounts(of user: UserID) async throws -> [Account]
    /// Every alert, dismissed ones included, in the order they were raised.
    func alerts(of user: UserID) async throws -> [FeedAlert]
    func creditScore(of user: UserID) async throws -> CreditScore
    /// The latest transactions, newest first.
    func recentTransactions(of user: UserID, limit: Int) async throws -> [Transaction]
    /// The latest notices on `board`, newest first: the same for every user.
    func notices(on board: String, limit: Int) async throws -> [Notice]

    /// Marks one of the user's alerts dismissed (again, if it already is).
    /// - Returns: the change of the user's alerts, recorded in the same
    ///   transaction, for open pages; `nil` when the user has no alert `id`
    ///   (nothing changes then).
    func dismissAlert(_ id: Int, of user: UserID) async throws -> LiveHub.Change?
    /// Brings back the user's dismissed alerts.
    /// - Returns: the change of the user's alerts, recorded in the same
    ///   transaction; `nil` when none was dismissed.
    func restoreAlerts(of user: UserID) async throws -> LiveHub.Change?

    /// Whether its reads run on the calling thread and never wait (SQLite's).
    var readsOnCallingThread: Bool { get }
}

extension FeedStore {
    /// By default, reads may wait.
    public var readsOnCallingThread: Bool { false }

    /// Where a section's load of this store's data runs.
    var loadPlacement: SectionLoad.Placement { readsOnCallingThread ? .readsHere : .mayWait }
}

extension SectionLoad {
    /// A section's read of `user`'s feed data, asked of the store beside the page's other loads.
    ///
    /// The read is handed the store and the user instead of capturing them:
    /// a closure that captures nothing is made without an allocation.
    static func feed<Model: Sendable>(
        of user: UserID, from store: any FeedStore, read: @escaping @Sendable (any FeedStore, UserID) async throws -> Model,
        deliver: @escaping (Model) -> Void
    ) -> SectionLoad {
        SectionLoad({ try await read(store, user) }, placement: store.loadPlacement, deliver: deliver)
    }
}

/// Each user's saved composition of a page.
public protocol LayoutStore: Sendable {
    /// The sections the user saved for `page`, in order (`nil` when none
    /// are saved), stamped with the version of their layouts.
    func savedLayout(of user: UserID, page: String) async throws -> SavedLayout
    /// Replaces the user's layout of `page`. - Returns: the change, to announce.
    func saveLayout(_ sections: [SectionID], of user: UserID, page: String) async throws -> LiveHub.Change
    /// Forgets the user's layout of `page`. - Returns: the change, to announce; `nil` when there was none.
    func resetLayout(of user: UserID, page: String) async throws -> LiveHub.Change?
}
