import Sectional
import SectionalAccounts
import SectionalServer
import Synchronization

@testable import FeedApp

/// A test double of the feed's store: the seed's users' feed data, read
/// from `SeedData` as it is, with alerts dismissed and restored in memory.
/// Users get ids 1, 2, … in seed order, as the seeder gives them.
final class SeedFeedStore: FeedStore {
    private let seed: [SeedUser]
    private let alertsByUser: Mutex<[[FeedAlert]]>
    /// The version of each user's alerts, as `LiveVersions` would keep it.
    private let versions = Mutex<[UserID: Int]>([:])

    init(users: [SeedUser] = SeedData.users) {
        seed = users
        var nextAlert = 0
        alertsByUser = Mutex(
            users.map { user in
                user.alerts.map { alert in
                    nextAlert += 1
                    return FeedAlert(id: nextAlert, severity: alert.severity, title: alert.title, text: alert.text)
                }
            })
    }

    private func index(of user: UserID) -> Int? { seed.indices.contains(user.rawValue - 1) ? user.rawValue - 1 : nil }

    func accounts(of user: UserID) async throws -> [Account] { index(of: user).map { seed[$0].accounts } ?? [] }

    func alerts(of user: UserID) async throws -> [FeedAlert] {
        guard let index = index(of: user) else { return [] }
        return alertsByUser.withLock { $0[index] }
    }

    func creditScore(of user: UserID) async throws -> CreditScore {
        let history = index(of: user).map { seed[$0].creditHistory } ?? []
        return CreditScore(score: history.last ?? 0, history: history)
    }

    func recentTransactions(of user: UserID, limit: Int) async throws -> [Transaction] {
        Array((index(of: user).map { seed[$0].transactions } ?? []).prefix(limit))
    }

    func notices(on board: String, limit: Int) async throws -> [Notice] { Array(SeedData.notices.reversed().prefix(limit)) }

    func dismissAlert(_ id: Int, of user: UserID) async throws -> LiveHub.Change? {
        guard let index = index(of: user) else { return nil }
        let found = alertsByUser.withLock { users in
            guard let alert = users[index].firstIndex(where: { $0.id == id }) else { return false }
            users[index][alert].isDismissed = true
            return true
        }
        return found ? changed(alertsOf: user) : nil
    }

    func restoreAlerts(of user: UserID) async throws -> LiveHub.Change? {
        guard let index = index(of: user) else { return nil }
        let restored = alertsByUser.withLock { users in
            let dismissed = users[index].indices.filter { users[index][$0].isDismissed }
            for alert in dismissed { users[index][alert].isDismissed = false }
            return !dismissed.isEmpty
        }
        return restored ? changed(alertsOf: user) : nil
    }

    private func changed(alertsOf user: UserID) -> LiveHub.Change {
        let version = versions.withLock { versions in
            versions[user, default: 0] += 1
            return versions[user]!
        }
        return LiveHub.Change(key: .alerts(of: user), version: version)
    }
}
