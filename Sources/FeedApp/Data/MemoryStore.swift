import Sectional
import SectionalSecurity
import Synchronization

/// The seed data in memory, writes included, gone when the process ends:
/// `--database memory:`, for tests and for measuring the renderer apart
/// from any database. Users get ids 1, 2, … in seed order.
public final class MemoryStore: FeedStore, ImmediateFeedReads, DayStore, ImmediateDayReads, LayoutStore, ImmediateLayoutReads, Sendable {
    private struct UserData {
        var alerts: [FeedAlert]
        var layouts: [String: [SectionID]] = [:]
    }

    private let seed: [SeedUser]
    private let state: Mutex<[UserData]>
    let accounts: MemoryAccounts

    /// The seed's users, their passwords hashed with `hasher`.
    public init(users: [SeedUser] = SeedData.users, hasher: PasswordHasher = PasswordHasher(.minimal)) {
        seed = users
        accounts = MemoryAccounts(
            users: users.enumerated().map { index, user in
                (User(id: UserID(index + 1), name: user.name, displayName: user.displayName), try? hasher.hash(user.password))
            })
        var nextAlert = 0
        state = Mutex(
            users.map { user in
                UserData(
                    alerts: user.alerts.map { alert in
                        nextAlert += 1
                        return FeedAlert(id: nextAlert, severity: alert.severity, title: alert.title, text: alert.text)
                    })
            })
    }

    public func users() async throws -> [User] { accounts.state.withLock { $0.users.map(\.user) } }

    private func index(of user: UserID) -> Int? {
        seed.indices.contains(user.rawValue - 1) ? user.rawValue - 1 : nil
    }

    private func seedUser(_ user: UserID) -> SeedUser? { index(of: user).map { seed[$0] } }

    // MARK: Feed

    public func accounts(of user: UserID) throws -> [Account] { seedUser(user)?.accounts ?? [] }

    public func alerts(of user: UserID) throws -> [FeedAlert] {
        guard let index = index(of: user) else { return [] }
        return state.withLock { $0[index].alerts }
    }

    public func creditScore(of user: UserID) throws -> CreditScore {
        let history = seedUser(user)?.creditHistory ?? []
        return CreditScore(score: history.last ?? 0, history: history)
    }

    public func recentTransactions(of user: UserID, limit: Int) throws -> [Transaction] {
        Array((seedUser(user)?.transactions ?? []).prefix(limit))
    }

    public func dismissAlert(_ id: Int, of user: UserID) async throws -> Bool {
        guard let index = index(of: user) else { return false }
        return state.withLock { users in
            guard let alert = users[index].alerts.firstIndex(where: { $0.id == id }) else { return false }
            users[index].alerts[alert].isDismissed = true
            return true
        }
    }

    public func restoreAlerts(of user: UserID) async throws -> Int {
        guard let index = index(of: user) else { return 0 }
        return state.withLock { users in
            let dismissed = users[index].alerts.indices.filter { users[index].alerts[$0].isDismissed }
            for alert in dismissed { users[index].alerts[alert].isDismissed = false }
            return dismissed.count
        }
    }

    // MARK: Layouts

    /// The store itself: its layout reads answer at once.
    public var immediateLayouts: (any ImmediateLayoutReads)? { self }

    public func savedLayout(of user: UserID, page: String) -> [SectionID]? {
        guard let index = index(of: user) else { return nil }
        return state.withLock { $0[index].layouts[page] }
    }

    public func saveLayout(_ sections: [SectionID], of user: UserID, page: String) async throws {
        guard let index = index(of: user) else { return }
        state.withLock { $0[index].layouts[page] = sections }
    }

    public func resetLayout(of user: UserID, page: String) async throws -> Bool {
        guard let index = index(of: user) else { return false }
        return state.withLock { $0[index].layouts.removeValue(forKey: page) != nil }
    }

    // MARK: Day

    /// The store itself: its day reads answer at once.
    public var immediateDayReads: (any ImmediateDayReads)? { self }

    public func summary(of user: UserID, on day: Day) -> DaySummary? {
        seedUser(user).flatMap { SeedData.summary(for: $0, on: day) }
    }

    public func sleep(of user: UserID, on day: Day) -> Night? {
        seedUser(user).flatMap { SeedData.sleep(for: $0, on: day) }
    }

    public func workout(of user: UserID, on day: Day) -> Workout? {
        seedUser(user).flatMap { SeedData.workout(for: $0, on: day) }
    }
}
