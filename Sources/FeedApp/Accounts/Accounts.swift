import HTTPServer
import SectionalSecurity

/// Who is asking: a user, signed in with a session cookie or an API token.
struct Visitor: Sendable {
    var user: User
    /// The session's stored hash; `nil` for an API token, which carries no forms.
    var sessionHash: String?
}

/// How sessions live and how sign-in is limited.
public struct AccountSettings: Sendable, Equatable {
    /// A session unused this long ends.
    public var sessionIdle: Duration
    /// A session ends this long after sign-in, used or not.
    public var sessionLifetime: Duration
    /// Proxies whose `X-Forwarded-Proto` and `X-Forwarded-For` are believed.
    public var trustedProxies: Set<String>
    /// Failed sign-ins allowed per account and per client address within `failureWindow`.
    public var failuresAllowed: Int
    public var failureWindow: Duration

    public init(
        sessionIdle: Duration = .seconds(30 * 60), sessionLifetime: Duration = .seconds(7 * 86_400), trustedProxies: Set<String> = [],
        failuresAllowed: Int = 5, failureWindow: Duration = .seconds(15 * 60)
    ) {
        self.sessionIdle = sessionIdle
        self.sessionLifetime = sessionLifetime
        self.trustedProxies = trustedProxies
        self.failuresAllowed = failuresAllowed
        self.failureWindow = failureWindow
    }
}

/// Sign-in, sessions and API tokens on an `AccountStore`. Every page and
/// API asks `visitor(for:)` first; nothing reads a user's data without one.
struct Accounts: Sendable {
    let store: any AccountStore
    let hasher: PasswordHasher
    let settings: AccountSettings
    let logger: Logger
    /// Unix seconds; tests move it.
    let now: @Sendable () -> Int
    let cookie = SessionCookie()
    /// Session tokens' hashes, worked out once per token: every signed-in request needs its own.
    private let sessionHashes = SecretTokenMemo()
    /// The session's lifetime and idle time in seconds, worked out once:
    /// every signed-in request compares both, and `Duration.components`
    /// divides 128-bit integers (380 instructions a request).
    private let lifetimeSeconds: Int
    private let idleSeconds: Int
    /// A session's `last_seen_at` is written at most this often: a page view is
    /// not a write. A tenth of the idle time, at most a minute: the write lags a
    /// visit by up to this much, so the idle window is never cut by more.
    let touchSeconds: Int

    init(store: any AccountStore, hasher: PasswordHasher, settings: AccountSettings, logger: Logger, now: @escaping @Sendable () -> Int) {
        self.store = store
        self.hasher = hasher
        self.settings = settings
        self.logger = logger
        self.now = now
        lifetimeSeconds = Int(settings.sessionLifetime.components.seconds)
        idleSeconds = Int(settings.sessionIdle.components.seconds)
        touchSeconds = min(60, max(1, idleSeconds / 10))
    }

    /// The signed-in visitor, from an `Authorization: Bearer` token or the session cookie.
    /// - Throws: a 401 `HTTPError` for a bearer token that is not valid; a 503 when the database fails.
    func visitor(for request: Request) async throws(HTTPError) -> Visitor? {
        do {
            if let bearer = request.bearerToken {
                guard SecretToken.isWellFormed(bearer), let user = try await store.apiTokenUser(tokenHash: SecretToken.hash(bearer)) else {
                    throw Self.unauthorized("The API token is not valid (revoked, or never issued).")
                }
                return Visitor(user: user, sessionHash: nil)
            }
            guard let hash = sessionHash(in: request), let session = try await store.session(tokenHash: hash) else { return nil }
            let now = now()
            switch state(of: session, at: now, for: request) {
            case .expired:
                try await store.deleteSession(tokenHash: hash)
                return nil
            case .dueTouch: try await store.touchSession(tokenHash: hash, now: now)
            case .current: break
            }
            return Visitor(user: session.user, sessionHash: hash)
        } catch let error as HTTPError {
            throw error
        } catch {
            logger.log("accounts: the session could not be read: \(error)")
            throw HTTPError(.serviceUnavailable, "Sign-in is unavailable for a moment; try again.")
        }
    }

    /// The hash of the session token the request's cookie carries, if it carries a well-formed one.
    private func sessionHash(in request: Request) -> String? {
        cookie.withValue(in: request, sessionHashes.hash(ofWellFormed:)) ?? nil
    }

    private enum SessionState {
        case current, dueTouch, expired
    }

    /// Whether a session has ended, or its `last_seen_at` is to be written now.
    private func state(of session: StoredSession, at now: Int, for request: Request) -> SessionState {
        if now - session.createdAt >= lifetimeSeconds || now - session.lastSeenAt >= idleSeconds {
            return .expired
        }
        // A live page's own checks are not activity: an open tab must not keep the session from idling out.
        return !request.isRecheck && now - session.lastSeenAt >= touchSeconds ? .dueTouch : .current
    }

    /// The visitor, or the answer for someone who must sign in: a 303 to the
    /// sign-in page that comes back here, or under `/api/` a 401.
    func requireVisitor(_ request: Request) async throws(HTTPError) -> Visitor {
        if let visitor = try await visitor(for: request) { return visitor }
        if request.path.hasPrefix("/api/") {
            throw Self.unauthorized("Sign in first, or send Authorization: Bearer TOKEN (feed-server token create USER).")
        }
        throw HTTPError(.seeOther, "Sign in to see this page.", headers: ["Location": SignInPage.path(returningTo: request)])
    }

    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, message, headers: ["WWW-Authenticate": #"Bearer realm="sectional""#])
    }

    /// Where the request really came from: behind a trusted proxy, the
    /// address it forwarded for (the last it added), else the connection's.
    func clientAddress(of request: Request) -> String {
        let direct = request.clientAddress ?? "unknown"
        guard settings.trustedProxies.contains(direct), let forwarded = request.headers["X-Forwarded-For"] else { return direct }
        return forwarded.split(separator: ",").last.map { $0.filter { $0 != " " } } ?? direct
    }

    /// Whether cookies must be `Secure`: the request came over HTTPS through a trusted proxy.
    func isSecure(_ request: Request) -> Bool { request.cameOverHTTPS(trustedProxies: settings.trustedProxies) }

    // MARK: Signing in and out

    enum SignInOutcome {
        case signedIn(Visitor, token: String)
        case refused
        case limited(retryAfter: Int)
        /// Too many passwords being checked at once: try again in a moment.
        case busy
    }

    /// Checks a name and password, at most `failuresAllowed` failures per
    /// account and per address in the window. An unknown name costs the
    /// same hash as a wrong password, and gets the same answer.
    ///
    /// The attempt is counted before its check, so attempts sent at once
    /// see each other; a success uncounts it and clears the account's count
    /// (never the address's: signing in to one's own account must not
    /// reset the limit on guessing others').
    func signIn(name: String, password: String, from address: String) async throws -> SignInOutcome {
        let nameKey = "name:" + name.lowercased()
        let keys = [nameKey, "address:" + address]
        let now = now()
        let window = seconds(settings.failureWindow)
        let attempt = SecretToken.generate()
        try await store.recordSignInFailure(keys: keys, now: now, attempt: attempt)
        for key in keys {
            // Failures within the last `window` seconds, this attempt included: one exactly `window` old has left it.
            let failures = try await store.signInFailures(key: key, since: now - window + 1)
            if failures.count > settings.failuresAllowed, let oldest = failures.first {
                // Refused unchecked: it does not extend the lockout.
                try await store.forgetSignInAttempt(attempt)
                return .limited(retryAfter: max(1, oldest + window - now))
            }
        }
        let found = try await store.user(named: name)
        guard let matches = await hasher.verifyOffThread(password, against: found?.passwordHash) else {
            try await store.forgetSignInAttempt(attempt)
            return .busy
        }
        guard matches, let user = found?.user else { return .refused }
        try await store.forgetSignInAttempt(attempt)
        try await store.clearSignInFailures(keys: [nameKey])
        // Sessions that ended without a sign-out go now: the table holds live sessions only.
        try await store.deleteExpiredSessions(
            createdBefore: now - lifetimeSeconds, seenBefore: now - idleSeconds)
        let token = SecretToken.generate()
        let tokenHash = SecretToken.hash(token)
        try await store.createSession(tokenHash: tokenHash, user: user.id, now: now)
        return .signedIn(Visitor(user: user, sessionHash: tokenHash), token: token)
    }

    /// Ends the request's session on the server.
    func signOut(_ request: Request) async throws {
        guard let token = cookie.value(in: request), SecretToken.isWellFormed(token) else { return }
        try await store.deleteSession(tokenHash: SecretToken.hash(token))
    }

    /// The `Set-Cookie` value of a new session.
    func sessionCookie(_ token: String, for request: Request) -> String {
        cookie.setting(token, maxAge: lifetimeSeconds, secure: isSecure(request))
    }

    private func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }
}
