import SectionalAccounts
import SectionalSQL
import SectionalSecurity

/// Writes `SeedData` into an empty database, in one transaction.
enum Seeder {
    /// Seeds when the database has no users yet. Replicas starting together
    /// seed once: the transaction (and on PostgreSQL an advisory lock) makes
    /// the check and the inserts one step.
    static func seedIfEmpty(_ db: any SQLConnection, users: [SeedUser] = SeedData.users, hasher: PasswordHasher) throws {
        try db.transaction {
            if db.dialect == .postgres { try db.execute("SELECT pg_advisory_xact_lock($1)", [.integer(0x5EC7_5EED)]) }
            guard try db.query("SELECT COUNT(*) FROM users", [])[0].int(0) == 0 else { return }
            for user in users { try insert(user, into: db, hasher: hasher) }
            for notice in SeedData.notices {
                try db.execute(
                    "INSERT INTO notices (board, title, body, posted_on) VALUES ($1, $2, $3, $4)",
                    [.text(NoticesSection.board), .text(notice.title), .text(notice.text), .text(notice.date.description)])
            }
            // The sign-in page names the demo users only while they are the demo's.
            try db.execute("INSERT INTO secrets (name, value) VALUES ('demo-data', 'seeded') ON CONFLICT (name) DO NOTHING")
        }
    }

    /// The demo users, named on the sign-in page with their passwords while
    /// `pool`'s database holds the demo data; none once it holds real users.
    static func demoUsers(in pool: ConnectionPool?) async throws -> [DemoUser] {
        guard let pool, try await pool.run({ db in try !db.query("SELECT value FROM secrets WHERE name = 'demo-data'", []).isEmpty })
        else { return [] }
        return SeedData.users.map { DemoUser(name: $0.name, password: $0.password) }
    }

    private static func insert(_ user: SeedUser, into db: any SQLConnection, hasher: PasswordHasher) throws {
        let id = try db.query(
            "INSERT INTO users (name, display_name, password_hash) VALUES ($1, $2, $3) RETURNING id",
            [.text(user.name), .text(user.displayName), .text(try hasher.hash(user.password))])[0].int(0)
        let userID = SQLValue.int(id)
        for (position, account) in user.accounts.enumerated() {
            try db.execute(
                "INSERT INTO accounts (user_id, position, name, last_digits, balance_cents) VALUES ($1, $2, $3, $4, $5)",
                [userID, .int(position), .text(account.name), .text(account.lastDigits), .int(account.balance.cents)])
        }
        for alert in user.alerts {
            try db.execute(
                "INSERT INTO alerts (user_id, severity, title, body) VALUES ($1, $2, $3, $4)",
                [userID, .int(alert.severity.rawValue), .text(alert.title), .text(alert.text)])
        }
        for (month, score) in user.creditHistory.enumerated() {
            try db.execute("INSERT INTO credit_scores (user_id, month, score) VALUES ($1, $2, $3)", [userID, .int(month), .int(score)])
        }
        for transaction in user.transactions {
            try db.execute(
                "INSERT INTO transactions (user_id, day, merchant, amount_cents) VALUES ($1, $2, $3, $4)",
                [userID, .text(transaction.date.description), .text(transaction.merchant), .int(transaction.amount.cents)])
        }
        var day = SeedData.days.lowerBound
        while day <= SeedData.days.upperBound {
            let date = SQLValue.text(day.description)
            if let summary = SeedData.summary(for: user, on: day) {
                try db.execute(
                    "INSERT INTO day_summaries (user_id, day, steps, active_minutes, calories) VALUES ($1, $2, $3, $4, $5)",
                    [userID, date, .int(summary.steps), .int(summary.activeMinutes), .int(summary.calories)])
            }
            if let night = SeedData.sleep(for: user, on: day) {
                try db.execute(
                    "INSERT INTO sleep_nights (user_id, day, bedtime_minutes, minutes_asleep, quality) VALUES ($1, $2, $3, $4, $5)",
                    [userID, date, .int(night.bedtimeMinutes), .int(night.minutesAsleep), .int(night.quality)])
            }
            if let workout = SeedData.workout(for: user, on: day) {
                try db.execute(
                    "INSERT INTO workouts (user_id, day, kind, minutes, metres, note) VALUES ($1, $2, $3, $4, $5, $6)",
                    [userID, date, .text(workout.kind), .int(workout.minutes), workout.metres.map(SQLValue.int) ?? .null, .text(workout.note)])
            }
            day = day.adding(days: 1)
        }
    }
}
