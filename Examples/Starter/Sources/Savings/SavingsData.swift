import Sectional
import SectionalAccounts
import SectionalSQL
import SectionalServer

/// A goal a user saves towards.
public struct Goal: Sendable, Equatable {
    public var id: Int
    public var name: String
    public var savedCents: Int
    public var targetCents: Int

    /// How far along it is, 0 to 100.
    var percent: Int { targetCents > 0 ? min(100, savedCents * 100 / targetCents) : 100 }
}

/// Money put aside for a goal.
public struct Deposit: Sendable, Equatable {
    public var goal: String
    public var cents: Int
}

/// The app's tables, one migration per change, never edited once shipped.
public enum SavingsSchema {
    /// The live data: a change to a user's rows, by the app or by anyone
    /// else (`sqlite3`, a batch job), raises their key through a trigger.
    static let goals = LiveTable("goals", kind: "goals", owner: "user_id")
    static let deposits = LiveTable("deposits", kind: "deposits", owner: "user_id")

    public static let migrations = [
        LiveVersions.migration(1), LiveVersions.orderMigration(2),
        AccountTables.migration(3), AccountTables.triggers(4),
        Migration(
            5, "goals and deposits",
            sql: """
                CREATE TABLE goals (
                    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), name TEXT NOT NULL,
                    target_cents INTEGER NOT NULL, saved_cents INTEGER NOT NULL DEFAULT 0);
                CREATE TABLE deposits (
                    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
                    goal_id INTEGER NOT NULL REFERENCES goals(id), cents INTEGER NOT NULL);
                CREATE INDEX goals_by_user ON goals (user_id, id);
                CREATE INDEX deposits_by_user ON deposits (user_id, id);
                """),
        LiveVersions.triggers(6, on: [goals, deposits]),
    ]
}

extension LiveKey {
    /// A user's goals and how much each has saved.
    static func goals(of user: UserID) -> LiveKey { SavingsSchema.goals.key(of: user) }
    /// A user's deposits.
    static func deposits(of user: UserID) -> LiveKey { SavingsSchema.deposits.key(of: user) }
}

/// The goals and deposits in the database: every query names its user.
public struct SavingsStore: Sendable {
    let pool: ConnectionPool

    public init(pool: ConnectionPool) { self.pool = pool }

    public func goals(of user: UserID) async throws -> [Goal] {
        try await pool.query("SELECT id, name, saved_cents, target_cents FROM goals WHERE user_id = $1 ORDER BY id", [.int(user.rawValue)])
            .map { row throws(SQLError) in
                Goal(id: try row.int(0), name: try row.text(1), savedCents: try row.int(2), targetCents: try row.int(3))
            }
    }

    public func recentDeposits(of user: UserID, limit: Int = 5) async throws -> [Deposit] {
        try await pool.query(
            """
            SELECT g.name, d.cents FROM deposits d JOIN goals g ON g.id = d.goal_id
            WHERE d.user_id = $1 ORDER BY d.id DESC LIMIT $2
            """, [.int(user.rawValue), .int(limit)]
        ).map { row throws(SQLError) in Deposit(goal: try row.text(0), cents: try row.int(1)) }
    }

    public func addGoal(_ name: String, targetCents: Int, of user: UserID) async throws {
        try await pool.write { db in
            try db.execute(
                "INSERT INTO goals (user_id, name, target_cents) VALUES ($1, $2, $3)", [.int(user.rawValue), .text(name), .int(targetCents)])
        }
    }

    /// Puts `cents` aside for the user's goal `goal`, in one transaction.
    /// - Returns: the changes to announce; `nil` when the user has no such goal.
    public func deposit(_ cents: Int, into goal: Int, of user: UserID) async throws -> [LiveHub.Change]? {
        try await pool.write { db -> [LiveHub.Change]? in
            let owned = try db.query(
                "UPDATE goals SET saved_cents = saved_cents + $1 WHERE id = $2 AND user_id = $3 RETURNING id",
                [.int(cents), .int(goal), .int(user.rawValue)])
            guard !owned.isEmpty else { return nil }
            try db.execute(
                "INSERT INTO deposits (user_id, goal_id, cents) VALUES ($1, $2, $3)", [.int(user.rawValue), .int(goal), .int(cents)])
            return [try LiveVersions.change(of: .goals(of: user), in: db), try LiveVersions.change(of: .deposits(of: user), in: db)]
        }
    }
}
