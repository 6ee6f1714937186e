import Sectional
import SectionalSQL
import SectionalServer

/// The accounts in the tables `AccountTables` creates, on SQLite or
/// PostgreSQL: reads where the pool reads, writes on its writer, each in its
/// transaction. A change of who a session is raises its user's
/// `LiveKey.signIn(of:)` in the same transaction, through the tables' triggers.
public struct SQLAccountStore: AccountStore {
    /// The database.
    public let pool: ConnectionPool

    /// The accounts in `pool`'s database.
    public init(pool: ConnectionPool) { self.pool = pool }

    public func users() async throws -> [User] {
        try await pool.read { db in try Self.users(db) }
    }

    /// Every user of the database `db`, by id.
    public static func users(_ db: any SQLConnection) throws -> [User] {
        try db.query("SELECT id, name, display_name FROM users ORDER BY id", []).map { row throws(SQLError) in
            User(id: UserID(try row.int(0)), name: try row.text(1), displayName: try row.text(2))
        }
    }

    public func user(named name: String) async throws -> (user: User, passwordHash: String?)? {
        try await pool.query("SELECT id, name, display_name, password_hash FROM users WHERE name = $1", [.text(name)]).first.map {
            row throws(SQLError) in
            (User(id: UserID(try row.int(0)), name: try row.text(1), displayName: try row.text(2)), row.optionalText(3))
        }
    }

    public func addUser(name: String, displayName: String, passwordHash: String) async throws -> User? {
        try await pool.write { db in
            try db.query(
                "INSERT INTO users (name, display_name, password_hash) VALUES ($1, $2, $3) ON CONFLICT (name) DO NOTHING RETURNING id",
                [.text(name), .text(displayName), .text(passwordHash)]
            ).first.map { row throws(SQLError) in User(id: UserID(try row.int(0)), name: name, displayName: displayName) }
        }
    }

    public func setPasswordHash(_ hash: String, forUserNamed name: String) async throws -> Bool {
        try await pool.write { db in
            guard let id = try db.query("UPDATE users SET password_hash = $1 WHERE name = $2 RETURNING id", [.text(hash), .text(name)]).first
            else { return false }
            // A new password ends every session of the old one: whoever else had it is signed out.
            try db.execute("DELETE FROM sessions WHERE user_id = $1", [.int(try id.int(0))])
            return true
        }
    }

    public func createSession(tokenHash: String, user: UserID, now: Int, keepingAtMost: Int) async throws -> LiveHub.Change {
        try await pool.write { db in
            try db.execute(
                "INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)",
                [.text(tokenHash), .int(user.rawValue), .int(now)])
            try db.execute(
                """
                DELETE FROM sessions WHERE user_id = $1 AND token_hash <> $2 AND token_hash NOT IN (
                    SELECT token_hash FROM sessions WHERE user_id = $1 AND token_hash <> $2
                    ORDER BY last_seen_at DESC, created_at DESC LIMIT $3)
                """,
                [.int(user.rawValue), .text(tokenHash), .int(max(0, keepingAtMost - 1))])
            return try LiveVersions.change(of: .signIn(of: user), in: db)
        }
    }

    public func session(tokenHash: String) async throws -> StoredSession? {
        try await pool.query(
            """
            SELECT u.id, u.name, u.display_name, s.created_at, s.last_seen_at,
                (SELECT version FROM live_versions WHERE key = CAST($2 AS TEXT) || CAST(u.id AS TEXT))
            FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1
            """, [.text(tokenHash), .text(AccountTables.sessions.kind + ":")]
        ).first.map { row throws(SQLError) in
            // The version in the same statement as the session: one snapshot, so a change after it is never stamped as seen.
            StoredSession(
                user: User(id: UserID(try row.int(0)), name: try row.text(1), displayName: try row.text(2)), createdAt: try row.int(3),
                lastSeenAt: try row.int(4), version: try row.optionalInt(5) ?? 0)
        }
    }

    public func touchSession(tokenHash: String, now: Int) async throws {
        try await pool.write { db in
            try db.execute("UPDATE sessions SET last_seen_at = $1 WHERE token_hash = $2", [.int(now), .text(tokenHash)])
        }
    }

    public func deleteSession(tokenHash: String) async throws -> LiveHub.Change? {
        try await pool.write { db in
            guard let row = try db.query("DELETE FROM sessions WHERE token_hash = $1 RETURNING user_id", [.text(tokenHash)]).first else {
                return nil
            }
            return try LiveVersions.change(of: .signIn(of: UserID(try row.int(0))), in: db)
        }
    }

    public func deleteExpired(sessionsCreatedBefore createdBefore: Int, seenBefore: Int, attemptsBefore: Int) async throws {
        try await pool.write { db in
            try db.execute("DELETE FROM sessions WHERE created_at < $1 OR last_seen_at < $2", [.int(createdBefore), .int(seenBefore)])
            try db.execute("DELETE FROM signin_failures WHERE at < $1", [.int(attemptsBefore)])
        }
    }

    public func createAPIToken(tokenHash: String, user: UserID, label: String, now: Int) async throws -> Int {
        try await pool.write { db in
            try db.query(
                "INSERT INTO api_tokens (user_id, token_hash, label, created_at) VALUES ($1, $2, $3, $4) RETURNING id",
                [.int(user.rawValue), .text(tokenHash), .text(label), .int(now)])[0].int(0)
        }
    }

    public func apiTokenUser(tokenHash: String) async throws -> User? {
        try await pool.query(
            """
            SELECT u.id, u.name, u.display_name FROM api_tokens t JOIN users u ON u.id = t.user_id
            WHERE t.token_hash = $1 AND NOT t.revoked
            """, [.text(tokenHash)]
        ).first.map { row throws(SQLError) in User(id: UserID(try row.int(0)), name: try row.text(1), displayName: try row.text(2)) }
    }

    public func revokeAPIToken(id: Int) async throws -> Bool {
        try await pool.write { db in
            try !db.query("UPDATE api_tokens SET revoked = TRUE WHERE id = $1 AND NOT revoked RETURNING id", [.int(id)]).isEmpty
        }
    }

    public func apiTokens() async throws -> [APITokenInfo] {
        try await pool.run { db in
            try db.query(
                "SELECT t.id, u.name, t.label, t.created_at, t.revoked FROM api_tokens t JOIN users u ON u.id = t.user_id ORDER BY t.id", []
            ).map { row throws(SQLError) in
                APITokenInfo(
                    id: try row.int(0), userName: try row.text(1), label: try row.text(2), createdAt: try row.int(3), revoked: try row.bool(4))
            }
        }
    }

    public func recordSignInFailure(keys: [String], now: Int, attempt: String) async throws {
        try await pool.write { db in
            for key in keys {
                try db.execute("INSERT INTO signin_failures (key, at, attempt) VALUES ($1, $2, $3)", [.text(key), .int(now), .text(attempt)])
            }
        }
    }

    public func forgetSignInAttempt(_ attempt: String) async throws {
        try await pool.write { db in try db.execute("DELETE FROM signin_failures WHERE attempt = $1", [.text(attempt)]) }
    }

    public func signInFailures(key: String, since: Int) async throws -> [Int] {
        try await pool.run { db in
            try db.query("SELECT at FROM signin_failures WHERE key = $1 AND at >= $2 ORDER BY at", [.text(key), .int(since)]).map {
                row throws(SQLError) in try row.int(0)
            }
        }
    }

    public func clearSignInFailures(keys: [String]) async throws {
        try await pool.write { db in
            for key in keys { try db.execute("DELETE FROM signin_failures WHERE key = $1", [.text(key)]) }
        }
    }
}
