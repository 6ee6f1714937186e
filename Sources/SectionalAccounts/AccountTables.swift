import Sectional
import SectionalSQL
import SectionalSecurity
import SectionalServer

/// The tables accounts live in, for an app's migrations to create: users
/// with their password hashes, sessions, API tokens, sign-in attempts, and
/// the secrets every replica shares (the key forms are signed with).
///
/// ```swift
/// let migrations = [
///     LiveVersions.migration(1), LiveVersions.orderMigration(2),
///     AccountTables.migration(3), AccountTables.triggers(4),
///     // the app's own tables from 5 on
/// ]
/// ```
public enum AccountTables {
    /// Who a session's user is and whether it is still open: raised by any
    /// change to the user's record or sessions (a sign-out, a new password),
    /// so that an answer confirmed for a session stops standing with it.
    public static let users = LiveTable("users", kind: "signin", owner: "id")
    /// A session's touch (its last-seen time) is no change of who it is: a kept visit expires before it is due.
    public static let sessions = LiveTable("sessions", kind: "signin", owner: "user_id", updatesOf: ["user_id", "token_hash"])

    /// The migration `version` that creates the tables. Times are Unix seconds; tokens are kept only as their hashes.
    public static func migration(_ version: Int) -> Migration {
        Migration(
            version, "users, sessions, API tokens, sign-in attempts and secrets",
            sqlite: """
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL, password_hash TEXT) STRICT;
                CREATE TABLE sessions (
                    token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
                    created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL) STRICT;
                CREATE TABLE api_tokens (
                    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), token_hash TEXT NOT NULL UNIQUE,
                    label TEXT NOT NULL, created_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT FALSE) STRICT;
                CREATE TABLE signin_failures (key TEXT NOT NULL, at INTEGER NOT NULL, attempt TEXT NOT NULL DEFAULT '') STRICT;
                CREATE INDEX sessions_by_user ON sessions (user_id);
                CREATE INDEX signin_failures_by_key ON signin_failures (key, at);
                CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
                """,
            postgres: """
                CREATE TABLE users (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL UNIQUE, display_name text NOT NULL,
                    password_hash text);
                CREATE TABLE sessions (
                    token_hash text PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
                    created_at bigint NOT NULL, last_seen_at bigint NOT NULL);
                CREATE TABLE api_tokens (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
                    token_hash text NOT NULL UNIQUE, label text NOT NULL, created_at bigint NOT NULL,
                    revoked boolean NOT NULL DEFAULT FALSE);
                CREATE TABLE signin_failures (key text NOT NULL, at bigint NOT NULL, attempt text NOT NULL DEFAULT '');
                CREATE INDEX sessions_by_user ON sessions (user_id);
                CREATE INDEX signin_failures_by_key ON signin_failures (key, at);
                CREATE TABLE secrets (name text PRIMARY KEY, value text NOT NULL);
                """)
    }

    /// The key forms are signed with (`FormGuard(key:)`), the same on every
    /// replica: made once, by whichever starts first, and kept in `secrets`.
    /// - Throws: when the database fails, or holds a key that is not one.
    public static func formKey(in db: any SQLConnection) throws -> [UInt8] {
        try db.transaction {
            try db.execute(
                "INSERT INTO secrets (name, value) VALUES ('form-key', $1) ON CONFLICT (name) DO NOTHING", [.text(Hex.encode(FormGuard.newKey()))])
            let stored = try db.query("SELECT value FROM secrets WHERE name = 'form-key'", [])[0].text(0)
            guard let key = Hex.decode(stored), key.count == 32 else { throw SQLError(code: "decode", message: "the stored form key is malformed") }
            return key
        }
    }

    /// The migration `version` that has the users' and sessions' changes
    /// raise `LiveKey.signIn(of:)`: after `LiveVersions`' own migrations and `migration(_:)`.
    public static func triggers(_ version: Int) -> Migration { LiveVersions.triggers(version, on: [users, sessions]) }
}

/// The key accounts raise.
extension LiveKey {
    /// A user's record and sessions: who each of their sessions is.
    public static func signIn(of user: UserID) -> LiveKey { AccountTables.sessions.key(of: user) }
}
