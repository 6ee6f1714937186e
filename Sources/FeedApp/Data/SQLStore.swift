import Sectional
import SectionalAccounts
import SectionalSQL
import SectionalServer

/// The feed's, the day page's and the layouts' data on SQLite or
/// PostgreSQL: the same SQL for both, each query scoped by user. A read is
/// one statement, run where the pool runs reads (on SQLite the caller's own
/// thread, on PostgreSQL its pipeline); writes on the pool's writer, each in
/// its transaction.
public final class SQLStore: FeedStore, DayStore, LayoutStore, Sendable {
    public let pool: ConnectionPool

    public init(pool: ConnectionPool) { self.pool = pool }

    public var readsOnCallingThread: Bool { pool.readsOnCallingThread }

    // MARK: Feed

    public func accounts(of user: UserID) async throws -> [Account] {
        try await pool.query(
            "SELECT name, last_digits, balance_cents FROM accounts WHERE user_id = $1 ORDER BY position", [.int(user.rawValue)]
        ).map { row throws(SQLError) in
            Account(name: try row.text(0), lastDigits: try row.text(1), balance: Money(cents: try row.int(2)))
        }
    }

    public func alerts(of user: UserID) async throws -> [FeedAlert] {
        try await pool.query("SELECT id, severity, title, body, dismissed FROM alerts WHERE user_id = $1 ORDER BY id", [.int(user.rawValue)])
            .map { row throws(SQLError) in
                FeedAlert(
                    id: try row.int(0), severity: FeedAlert.Severity(rawValue: try row.int(1)) ?? .info, title: try row.text(2),
                    text: try row.text(3), isDismissed: try row.bool(4))
            }
    }

    public func creditScore(of user: UserID) async throws -> CreditScore {
        let history = try await pool.query(
            "SELECT score FROM credit_scores WHERE user_id = $1 ORDER BY month DESC LIMIT 12", [.int(user.rawValue)]
        ).map { row throws(SQLError) in try row.int(0) }.reversed()
        return CreditScore(score: history.last ?? 0, history: Array(history))
    }

    public func recentTransactions(of user: UserID, limit: Int) async throws -> [Transaction] {
        try await pool.query(
            "SELECT day, merchant, amount_cents FROM transactions WHERE user_id = $1 ORDER BY day DESC, id LIMIT $2",
            [.int(user.rawValue), .int(limit)]
        ).map { row throws(SQLError) in
            Transaction(date: try Self.day(row, 0), merchant: try row.text(1), amount: Money(cents: try row.int(2)))
        }
    }

    public func notices(on board: String, limit: Int) async throws -> [Notice] {
        try await pool.query(
            "SELECT title, body, posted_on FROM notices WHERE board = $1 ORDER BY posted_on DESC, id DESC LIMIT $2", [.text(board), .int(limit)]
        ).map { row throws(SQLError) in Notice(title: try row.text(0), text: try row.text(1), date: try Self.day(row, 2)) }
    }

    public func dismissAlert(_ id: Int, of user: UserID) async throws -> LiveHub.Change? {
        try await pool.write { db in
            let found = try db.query(
                "UPDATE alerts SET dismissed = TRUE WHERE id = $1 AND user_id = $2 RETURNING id", [.int(id), .int(user.rawValue)])
            return found.isEmpty ? nil : try LiveVersions.change(of: .alerts(of: user), in: db)
        }
    }

    public func restoreAlerts(of user: UserID) async throws -> LiveHub.Change? {
        try await pool.write { db in
            let restored = try db.query("UPDATE alerts SET dismissed = FALSE WHERE user_id = $1 AND dismissed RETURNING id", [.int(user.rawValue)])
            return restored.isEmpty ? nil : try LiveVersions.change(of: .alerts(of: user), in: db)
        }
    }

    // MARK: Layouts

    public func savedLayout(of user: UserID, page: String) async throws -> SavedLayout {
        let key = LiveKey.layouts(of: user)
        // The version in the same statement as the layout, saved or not: one snapshot.
        let row = try await pool.query(
            """
            SELECT (SELECT sections FROM layouts WHERE user_id = $1 AND page = $2),
                (SELECT version FROM live_versions WHERE key = $3)
            """, [.int(user.rawValue), .text(page), .text(key.description)]
        ).first
        let sections = row?.optionalText(0).map { $0.split(separator: ",").map { SectionID(String($0)) } }
        return SavedLayout(sections, readAt: ReadStamp([(key, try row?.optionalInt(1) ?? 0)]))
    }

    public func saveLayout(_ sections: [SectionID], of user: UserID, page: String) async throws -> LiveHub.Change {
        let list = sections.commaSeparated
        return try await pool.write { db in
            try db.execute(
                """
                INSERT INTO layouts (user_id, page, sections) VALUES ($1, $2, $3)
                ON CONFLICT (user_id, page) DO UPDATE SET sections = excluded.sections
                """, [.int(user.rawValue), .text(page), .text(list)])
            return try LiveVersions.change(of: .layouts(of: user), in: db)
        }
    }

    public func resetLayout(of user: UserID, page: String) async throws -> LiveHub.Change? {
        try await pool.write { db in
            let removed = try db.query("DELETE FROM layouts WHERE user_id = $1 AND page = $2 RETURNING user_id", [.int(user.rawValue), .text(page)])
            return removed.isEmpty ? nil : try LiveVersions.change(of: .layouts(of: user), in: db)
        }
    }

    // MARK: Day

    public func summary(of user: UserID, on day: Day) async throws -> DaySummary? {
        try await pool.query(
            "SELECT steps, active_minutes, calories FROM day_summaries WHERE user_id = $1 AND day = $2",
            [.int(user.rawValue), .text(day.description)]
        ).first.map { row throws(SQLError) in
            DaySummary(steps: try row.int(0), activeMinutes: try row.int(1), calories: try row.int(2))
        }
    }

    public func sleep(of user: UserID, on day: Day) async throws -> Night? {
        try await pool.query(
            "SELECT bedtime_minutes, minutes_asleep, quality FROM sleep_nights WHERE user_id = $1 AND day = $2",
            [.int(user.rawValue), .text(day.description)]
        ).first.map { row throws(SQLError) in
            Night(bedtimeMinutes: try row.int(0), minutesAsleep: try row.int(1), quality: try row.int(2))
        }
    }

    public func workout(of user: UserID, on day: Day) async throws -> Workout? {
        try await pool.query(
            "SELECT kind, minutes, metres, note FROM workouts WHERE user_id = $1 AND day = $2", [.int(user.rawValue), .text(day.description)]
        ).first.map { row throws(SQLError) in
            Workout(kind: try row.text(0), minutes: try row.int(1), metres: try row.optionalInt(2), note: try row.text(3))
        }
    }

    private static func day(_ row: SQLRow, _ column: Int) throws(SQLError) -> Day {
        let text = try row.text(column)
        guard let day = Day(iso: text) else { throw SQLError(code: "decode", message: "'\(text)' is not a date") }
        return day
    }
}
