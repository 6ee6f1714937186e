import SectionalServer

/// A signed-in visit: whose it is, and since when.
public struct StoredSession: Sendable, Equatable {
    /// Whose session it is.
    public var user: User
    /// When it was signed in, in Unix seconds.
    public var createdAt: Int
    /// When it was last used, in Unix seconds: renewed at most once a minute.
    public var lastSeenAt: Int
    /// The version of the user's sign-in data (`LiveKey.signIn(of:)`) as the session was read.
    public var version: Int
}

/// An API token as an admin lists it; never the token itself.
public struct APITokenInfo: Sendable, Equatable {
    /// The number it is revoked by.
    public var id: Int
    /// The name of the user it reads as.
    public var userName: String
    /// What it is for, as its maker said.
    public var label: String
    /// When it was made, in Unix seconds.
    public var createdAt: Int
    /// Whether it was revoked: it reads nothing any more.
    public var revoked: Bool
}

/// Users, passwords, sessions, API tokens and sign-in failures. Tokens are
/// stored only as their hashes (`SecretToken.hash`); times are Unix seconds.
/// In the database, so that every replica shares them.
public protocol AccountStore: Sendable {
    /// The user with this sign-in name, and their password hash (none when no password is set).
    func user(named name: String) async throws -> (user: User, passwordHash: String?)?
    /// Every user, by id.
    func users() async throws -> [User]
    /// Adds a user. - Returns: `nil` when the name is taken.
    func addUser(name: String, displayName: String, passwordHash: String) async throws -> User?
    /// Replaces a user's password hash and ends all their sessions. - Returns: `false` when there is no such user.
    func setPasswordHash(_ hash: String, forUserNamed name: String) async throws -> Bool

    /// Stores a new session, and ends the user's least recently used ones
    /// beyond `keepingAtMost` (the new one included).
    /// - Returns: the change to the user's sign-in data, to announce.
    func createSession(tokenHash: String, user: UserID, now: Int, keepingAtMost: Int) async throws -> LiveHub.Change
    /// The session whose token hashes to `tokenHash`, with its user, if it exists.
    func session(tokenHash: String) async throws -> StoredSession?
    /// Notes that the session was used at `now`: its idle time starts again.
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
    /// Every API token ever made, revoked or not, by id.
    func apiTokens() async throws -> [APITokenInfo]

    /// Counts an attempt under each key before its password is checked, so
    /// that attempts made at once see each other; `attempt` names it.
    func recordSignInFailure(keys: [String], now: Int, attempt: String) async throws
    /// Uncounts one attempt: it succeeded, or was refused unchecked.
    func forgetSignInAttempt(_ attempt: String) async throws
    /// Failures under `key` at or after `since`, oldest first (their times).
    func signInFailures(key: String, since: Int) async throws -> [Int]
    /// Forgets every attempt counted under `keys`.
    func clearSignInFailures(keys: [String]) async throws
}
