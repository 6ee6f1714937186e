import Synchronization

/// Accounts in memory, for `--database memory:`: the same rules as the database.
final class MemoryAccounts: Sendable {
    struct State {
        var users: [(user: User, passwordHash: String?)]
        var sessions: [String: StoredSession] = [:]
        var tokens: [(info: APITokenInfo, hash: String, user: UserID)] = []
        var failures: [String: [(at: Int, attempt: String)]] = [:]
    }

    let state: Mutex<State>

    init(users: [(User, String?)]) { state = Mutex(State(users: users)) }
}

extension MemoryStore: AccountStore, ImmediateSessionReads {
    /// The store itself: its session reads answer at once.
    public var immediateSessions: (any ImmediateSessionReads)? { self }

    public func user(named name: String) async throws -> (user: User, passwordHash: String?)? {
        accounts.state.withLock { state in state.users.first { $0.user.name == name } }
    }

    public func addUser(name: String, displayName: String, passwordHash: String) async throws -> User? {
        accounts.state.withLock { state in
            guard !state.users.contains(where: { $0.user.name == name }) else { return nil }
            let user = User(id: UserID((state.users.map(\.user.id.rawValue).max() ?? 0) + 1), name: name, displayName: displayName)
            state.users.append((user, passwordHash))
            return user
        }
    }

    public func setPasswordHash(_ hash: String, forUserNamed name: String) async throws -> Bool {
        accounts.state.withLock { state in
            guard let index = state.users.firstIndex(where: { $0.user.name == name }) else { return false }
            state.users[index].passwordHash = hash
            let user = state.users[index].user.id
            state.sessions = state.sessions.filter { $0.value.user.id != user }
            return true
        }
    }

    public func createSession(tokenHash: String, user: UserID, now: Int) async throws {
        accounts.state.withLock { state in
            guard let found = state.users.first(where: { $0.user.id == user }) else { return }
            state.sessions[tokenHash] = StoredSession(user: found.user, createdAt: now, lastSeenAt: now)
        }
    }

    public func session(tokenHash: String) -> StoredSession? { accounts.state.withLock { $0.sessions[tokenHash] } }

    public func touchSession(tokenHash: String, now: Int) async throws {
        accounts.state.withLock { $0.sessions[tokenHash]?.lastSeenAt = now }
    }

    public func deleteSession(tokenHash: String) async throws { _ = accounts.state.withLock { $0.sessions.removeValue(forKey: tokenHash) } }

    public func deleteExpiredSessions(createdBefore: Int, seenBefore: Int) async throws {
        accounts.state.withLock { state in
            state.sessions = state.sessions.filter { $0.value.createdAt >= createdBefore && $0.value.lastSeenAt >= seenBefore }
        }
    }

    public func createAPIToken(tokenHash: String, user: UserID, label: String, now: Int) async throws -> Int {
        accounts.state.withLock { state in
            let id = (state.tokens.map(\.info.id).max() ?? 0) + 1
            let name = state.users.first { $0.user.id == user }?.user.name ?? "?"
            state.tokens.append((APITokenInfo(id: id, userName: name, label: label, createdAt: now, revoked: false), tokenHash, user))
            return id
        }
    }

    public func apiTokenUser(tokenHash: String) -> User? {
        accounts.state.withLock { state in
            guard let id = state.tokens.first(where: { $0.hash == tokenHash && !$0.info.revoked })?.user else { return nil }
            return state.users.first { $0.user.id == id }?.user
        }
    }

    public func revokeAPIToken(id: Int) async throws -> Bool {
        accounts.state.withLock { state in
            guard let index = state.tokens.firstIndex(where: { $0.info.id == id && !$0.info.revoked }) else { return false }
            state.tokens[index].info.revoked = true
            return true
        }
    }

    public func apiTokens() async throws -> [APITokenInfo] { accounts.state.withLock { $0.tokens.map(\.info) } }

    public func recordSignInFailure(keys: [String], now: Int, attempt: String) async throws {
        accounts.state.withLock { state in for key in keys { state.failures[key, default: []].append((now, attempt)) } }
    }

    public func forgetSignInAttempt(_ attempt: String) async throws {
        accounts.state.withLock { state in
            for key in state.failures.keys { state.failures[key]?.removeAll { $0.attempt == attempt } }
        }
    }

    public func signInFailures(key: String, since: Int) async throws -> [Int] {
        accounts.state.withLock { state in (state.failures[key] ?? []).map(\.at).filter { $0 >= since } }
    }

    public func clearSignInFailures(keys: [String]) async throws {
        accounts.state.withLock { state in for key in keys { state.failures[key] = nil } }
    }

    public func isDemoData() async throws -> Bool { true }
}
