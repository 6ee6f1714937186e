import SectionalServer

/// A signed-in visit: whose it is, and since when.
public struct StoredSession: Sendable, Equatable {
    public var user: User
    /// Unix seconds.
    public var createdAt: Int
    public var lastSeenAt: Int
    /// The version of the user's sign-in data (`LiveKey.signIn(of:)`) as the session was read.
    public var version: Int
}

/// An API token as `feed-server token list` shows it; never the token itself.
public struct APITokenInfo: Sendable, Equatable {
    public var id: Int
    public var userName: String
    public var label: String
    public var createdAt: Int
    public var revoked: Bool
}

/// Users, passwords, sessions, API tokens and sign-in failures. Tokens are
/// stored only as their hashes (`SecretToken.hash`); times are Unix seconds.
/// In the database, so that every replica shares them.
public protocol AccountStore: Sendable {
    /// The user with this sign-in name, and their password hash (none when no password is set).
    func user(named name: String) async throws -> (user: User, passwordHash: String?)?
    func users() async throws -> [User]
    /// Adds a user. - Returns: `nil` when the name is taken.
    func addUser(name: String, displayName: String, passwordHash: String) async throws -> User?
    /// Replaces a user's password hash and ends all their sessions. - Returns: `false` when there is no such user.
    func setPasswordHash(_ hash: String, forUserNamed name: String) async throws -> Bool

    /// Stores a new session, and ends the user's least recently used ones
    /// beyond `keepingAtMost` (the new one included).
    /// - Returns: the change to the user's sign-in data, to announce.
    func createSession(tokenHash: String, user: UserID, now: Int, keepingAtMost: Int) async throws -> LiveHub.Change
    func session(tokenHash: String) async throws -> StoredSession?
    func touchSession(tokenHash: String, now: Int) async throws
    /// - Returns: the change to its user's sign-in data, to announce; `nil` when there was no such session.
    func deleteSession(tokenHash: String) async throws -> LiveHub.Change?
    /// Deletes sessions created before `createdBefore` or last seen before
    /// `seenBefore`, and sign-in attempts counted before `attemptsBefore`.
    func deleteExpired(sessionsCreatedBefore createdBefore: Int, seenBefore: Int, attemptsBefore: Int) async throws

    /// - Returns: the new token's id.
    func createAPIToken(tokenHash: String, user: UserID, label: String, now: Int) async throws -> Int
    /// The user of a token that is not revoked.
    func apiTokenUser(tokenHash: String) async throws -> User?
    /// - Returns: `false` when there is no such token (or it was revoked already).
    func revokeAPIToken(id: Int) async throws -> Bool
    func apiTokens() async throws -> [APITokenInfo]

    /// Counts an attempt under each key before its password is checked, so
    /// that attempts made at once see each other; `attempt` names it.
    func recordSignInFailure(keys: [String], now: Int, attempt: String) async throws
    /// Uncounts one attempt: it succeeded, or was refused unchecked.
    func forgetSignInAttempt(_ attempt: String) async throws
    /// Failures under `key` at or after `since`, oldest first (their times).
    func signInFailures(key: String, since: Int) async throws -> [Int]
    func clearSignInFailures(keys: [String]) async throws

    /// Whether the demo users were seeded into this database: the sign-in page then names them.
    func isDemoData() async throws -> Bool
}
