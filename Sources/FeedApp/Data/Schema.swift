import SectionalAccounts
import SectionalSQL
import SectionalServer

/// The app's tables, one migration per change, never edited once shipped
/// (the accounts' tables too: a new app creates them with `AccountTables`).
/// Money is integer cents; dates are ISO `YYYY-MM-DD` text on both engines,
/// which sorts and compares as dates do. Every row of user data names its user.
enum Schema {
    static let migrations: [Migration] = [
        Migration(
            1, "users, feed and day data",
            sqlite: """
                CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, display_name TEXT NOT NULL) STRICT;
                CREATE TABLE accounts (
                    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), position INTEGER NOT NULL,
                    name TEXT NOT NULL, last_digits TEXT NOT NULL, balance_cents INTEGER NOT NULL) STRICT;
                CREATE TABLE alerts (
                    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), severity INTEGER NOT NULL,
                    title TEXT NOT NULL, body TEXT NOT NULL, dismissed INTEGER NOT NULL DEFAULT FALSE) STRICT;
                CREATE TABLE credit_scores (
                    user_id INTEGER NOT NULL REFERENCES users(id), month INTEGER NOT NULL, score INTEGER NOT NULL,
                    PRIMARY KEY (user_id, month)) STRICT;
                CREATE TABLE transactions (
                    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), day TEXT NOT NULL,
                    merchant TEXT NOT NULL, amount_cents INTEGER NOT NULL) STRICT;
                CREATE TABLE day_summaries (
                    user_id INTEGER NOT NULL REFERENCES users(id), day TEXT NOT NULL, steps INTEGER NOT NULL,
                    active_minutes INTEGER NOT NULL, calories INTEGER NOT NULL, PRIMARY KEY (user_id, day)) STRICT;
                CREATE TABLE sleep_nights (
                    user_id INTEGER NOT NULL REFERENCES users(id), day TEXT NOT NULL, bedtime_minutes INTEGER NOT NULL,
                    minutes_asleep INTEGER NOT NULL, quality INTEGER NOT NULL, PRIMARY KEY (user_id, day)) STRICT;
                CREATE TABLE workouts (
                    user_id INTEGER NOT NULL REFERENCES users(id), day TEXT NOT NULL, kind TEXT NOT NULL,
                    minutes INTEGER NOT NULL, metres INTEGER, note TEXT NOT NULL, PRIMARY KEY (user_id, day)) STRICT;
                CREATE INDEX alerts_by_user ON alerts (user_id, id);
                CREATE INDEX accounts_by_user ON accounts (user_id, position);
                CREATE INDEX transactions_by_user ON transactions (user_id, day);
                """,
            postgres: """
                CREATE TABLE users (id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, name text NOT NULL UNIQUE, display_name text NOT NULL);
                CREATE TABLE accounts (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
                    position integer NOT NULL, name text NOT NULL, last_digits text NOT NULL, balance_cents bigint NOT NULL);
                CREATE TABLE alerts (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
                    severity integer NOT NULL, title text NOT NULL, body text NOT NULL, dismissed boolean NOT NULL DEFAULT FALSE);
                CREATE TABLE credit_scores (
                    user_id bigint NOT NULL REFERENCES users(id), month integer NOT NULL, score integer NOT NULL,
                    PRIMARY KEY (user_id, month));
                CREATE TABLE transactions (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
                    day text NOT NULL, merchant text NOT NULL, amount_cents bigint NOT NULL);
                CREATE TABLE day_summaries (
                    user_id bigint NOT NULL REFERENCES users(id), day text NOT NULL, steps integer NOT NULL,
                    active_minutes integer NOT NULL, calories integer NOT NULL, PRIMARY KEY (user_id, day));
                CREATE TABLE sleep_nights (
                    user_id bigint NOT NULL REFERENCES users(id), day text NOT NULL, bedtime_minutes integer NOT NULL,
                    minutes_asleep integer NOT NULL, quality integer NOT NULL, PRIMARY KEY (user_id, day));
                CREATE TABLE workouts (
                    user_id bigint NOT NULL REFERENCES users(id), day text NOT NULL, kind text NOT NULL,
                    minutes integer NOT NULL, metres integer, note text NOT NULL, PRIMARY KEY (user_id, day));
                CREATE INDEX alerts_by_user ON alerts (user_id, id);
                CREATE INDEX accounts_by_user ON accounts (user_id, position);
                CREATE INDEX transactions_by_user ON transactions (user_id, day);
                """),
        Migration(
            2, "saved layouts and the server's secrets",
            sqlite: """
                CREATE TABLE layouts (
                    user_id INTEGER NOT NULL REFERENCES users(id), page TEXT NOT NULL, sections TEXT NOT NULL,
                    PRIMARY KEY (user_id, page)) STRICT;
                CREATE TABLE secrets (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
                """,
            postgres: """
                CREATE TABLE layouts (
                    user_id bigint NOT NULL REFERENCES users(id), page text NOT NULL, sections text NOT NULL,
                    PRIMARY KEY (user_id, page));
                CREATE TABLE secrets (name text PRIMARY KEY, value text NOT NULL);
                """),
        Migration(
            3, "passwords, sessions, API tokens and sign-in failures",
            sqlite: """
                ALTER TABLE users ADD COLUMN password_hash TEXT;
                CREATE TABLE sessions (
                    token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id),
                    created_at INTEGER NOT NULL, last_seen_at INTEGER NOT NULL) STRICT;
                CREATE TABLE api_tokens (
                    id INTEGER PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id), token_hash TEXT NOT NULL UNIQUE,
                    label TEXT NOT NULL, created_at INTEGER NOT NULL, revoked INTEGER NOT NULL DEFAULT FALSE) STRICT;
                CREATE TABLE signin_failures (key TEXT NOT NULL, at INTEGER NOT NULL) STRICT;
                CREATE INDEX sessions_by_user ON sessions (user_id);
                CREATE INDEX signin_failures_by_key ON signin_failures (key, at);
                """,
            postgres: """
                ALTER TABLE users ADD COLUMN password_hash text;
                CREATE TABLE sessions (
                    token_hash text PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
                    created_at bigint NOT NULL, last_seen_at bigint NOT NULL);
                CREATE TABLE api_tokens (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, user_id bigint NOT NULL REFERENCES users(id),
                    token_hash text NOT NULL UNIQUE, label text NOT NULL, created_at bigint NOT NULL,
                    revoked boolean NOT NULL DEFAULT FALSE);
                CREATE TABLE signin_failures (key text NOT NULL, at bigint NOT NULL);
                CREATE INDEX sessions_by_user ON sessions (user_id);
                CREATE INDEX signin_failures_by_key ON signin_failures (key, at);
                """),
        Migration(
            4, "sign-in attempts counted before their check",
            sql: "ALTER TABLE signin_failures ADD COLUMN attempt TEXT NOT NULL DEFAULT ''"),
        LiveVersions.migration(5),
        LiveVersions.orderMigration(6),
        LiveVersions.triggers(7, on: LiveData.tables),
        LiveVersions.triggers(8, on: LiveData.frameTables),
        Migration(
            9, "notices every customer reads",
            sqlite: """
                CREATE TABLE notices (
                    id INTEGER PRIMARY KEY, board TEXT NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL, posted_on TEXT NOT NULL) STRICT;
                CREATE INDEX notices_by_board ON notices (board, posted_on);
                """,
            postgres: """
                CREATE TABLE notices (
                    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY, board text NOT NULL, title text NOT NULL, body text NOT NULL,
                    posted_on text NOT NULL);
                CREATE INDEX notices_by_board ON notices (board, posted_on);
                """),
        LiveVersions.triggers(10, on: [LiveData.notices]),
        LiveVersions.triggers(11, on: [AccountTables.sessions]),
    ]
}
