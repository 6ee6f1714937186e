import HTTPServer
import Sectional
import SectionalSecurity
import SectionalServer

#if canImport(Glibc)
    import Glibc
#endif

/// How sessions live and how sign-in is limited.
public struct AccountSettings: Sendable, Equatable {
    /// A session unused this long ends.
    public var sessionIdle: Duration
    /// A session ends this long after sign-in, used or not.
    public var sessionLifetime: Duration
    /// Proxies whose `X-Forwarded-Proto` and `X-Forwarded-For` are believed.
    public var trustedProxies: Set<String>
    /// Sign-ins a name may try from one address within `failureWindow`
    /// (failed or not) before each further one waits a delay that doubles;
    /// four times as many failures for the name from anywhere (its delay at
    /// most a minute) and for the address across names.
    public var failuresAllowed: Int
    /// How long an attempt counts (`failuresAllowed`).
    public var failureWindow: Duration
    /// Sessions a user keeps: signing in past it ends their least recently used.
    public var sessionsPerUser: Int

    /// Sessions of half an hour's idle time and a week's life, five attempts in a quarter of an hour, ten sessions a user.
    public init(
        sessionIdle: Duration = .seconds(30 * 60), sessionLifetime: Duration = .seconds(7 * 86_400), trustedProxies: Set<String> = [],
        failuresAllowed: Int = 5, failureWindow: Duration = .seconds(15 * 60), sessionsPerUser: Int = 10
    ) {
        self.sessionsPerUser = sessionsPerUser
        self.sessionIdle = sessionIdle
        self.sessionLifetime = sessionLifetime
        self.trustedProxies = trustedProxies
        self.failuresAllowed = failuresAllowed
        self.failureWindow = failureWindow
    }
}

/// Sign-in, sessions and API tokens on an `AccountStore`: the site's
/// `SignIn`, which every page and API asks first; nothing reads a user's
/// data without a visitor. `SignInRoutes` serves its form.
///
/// ```swift
/// let accounts = Accounts(store: SQLAccountStore(pool: pool), hasher: PasswordHasher())
/// site.signIn = accounts
/// SignInRoutes(accounts: accounts, formGuard: formGuard, site: site, live: hub).register(on: &router)
/// ```
public struct Accounts: SignIn {
    /// Where users, sessions and tokens are kept.
    public let store: any AccountStore
    /// Checks and makes password hashes.
    public let hasher: PasswordHasher
    /// How sessions live and sign-in is limited.
    public let settings: AccountSettings
    let logger: Logger
    /// Unix seconds; tests move it.
    let now: @Sendable () -> Int
    /// The cookie a browser's session is carried in.
    public let cookie = SessionCookie()
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

    /// Accounts in `store`, their passwords checked by `hasher`, their sessions
    /// living as `settings` say; problems go to `logger`; `now` is the time in Unix seconds.
    public init(
        store: any AccountStore, hasher: PasswordHasher, settings: AccountSettings = AccountSettings(), logger: Logger = .standardError,
        now: @escaping @Sendable () -> Int = { Int(time(nil)) }
    ) {
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
    /// - Parameters:
    ///   - request: the request, with its cookie or `Authorization` field.
    ///   - renewing: whether the request is the visitor's activity, which keeps their session from idling out.
    /// - Throws: a 401 `HTTPError` for a bearer token that is not valid; a 503 when the database fails.
    public func visitor(for request: Request, renewing: Bool = true) async throws(HTTPError) -> SignedIn<User>? {
        do {
            if let bearer = request.bearerToken {
                guard SecretToken.isWellFormed(bearer), let user = try await store.apiTokenUser(tokenHash: SecretToken.hash(bearer)) else {
                    throw Self.unauthorized("The API token is not valid (revoked, or never issued).")
                }
                return Self.visitor(user, session: nil)
            }
            guard let hash = sessionHash(in: request), let session = try await store.session(tokenHash: hash) else { return nil }
            let now = now()
            switch state(of: session, at: now, renewing: renewing) {
            case .expired:
                _ = try await store.deleteSession(tokenHash: hash)  // its stamp expired with it
                return nil
            case .dueTouch: try await store.touchSession(tokenHash: hash, now: now)
            case .current: break
            }
            return Self.visitor(session.user, session: hash, readAt: readAt(session, now: now, renewing: renewing))
        } catch let error as HTTPError {
            throw error
        } catch is CancellationError {
            // The client left before its session was read: nobody is waiting for the answer.
            logger.debug("accounts: the session read was cancelled, its client gone")
            throw HTTPError(.serviceUnavailable, "The request was cancelled.")
        } catch {
            logger.error("accounts: the session could not be read: \(error)")
            throw HTTPError(.serviceUnavailable, "Sign-in is unavailable for a moment; try again.")
        }
    }

    /// `user`, named by their id in logs and live limits; `session` is the session's stored hash, `nil` for an API token.
    static func visitor(_ user: User, session: String?, readAt: ReadStamp? = nil) -> SignedIn<User> {
        SignedIn(user: user, name: user.id.description, session: session, readAt: readAt)
    }

    /// What the session was read at: the version of its user's sign-in
    /// data, holding until its lifetime ends and, for a read that renews it,
    /// until its next renewal is due; for one that does not (a live page's
    /// check), until it would idle out. (An API token's visit is not
    /// stamped: it is looked up every time.)
    private func readAt(_ session: StoredSession, now: Int, renewing: Bool) -> ReadStamp {
        let lastsUntil = session.lastSeenAt + (renewing ? touchSeconds : idleSeconds)
        // A second short: `now` is whole seconds of the wall clock, the expiry an instant of the monotonic one.
        let holds = min(session.createdAt + lifetimeSeconds, lastsUntil) - now - 1
        return ReadStamp([(.signIn(of: session.user.id), session.version)], expires: .now + .seconds(max(0, holds)))
    }

    /// The session cookie's token or the bearer token, as sent; `""` for
    /// neither, or for a cookie that is no token (whoever sends it is nobody).
    public func credential(in request: Request) -> String? {
        if let bearer = request.bearerToken { return "Bearer " + bearer }
        // Checked on the field's bytes: a string is made of a token only.
        return cookie.withValue(in: request) { SecretToken.isWellFormed($0) ? String(decoding: $0, as: UTF8.self) : "" } ?? ""
    }

    /// The hash of the session token the request's cookie carries, if it carries a well-formed one.
    private func sessionHash(in request: Request) -> String? {
        cookie.withValue(in: request, sessionHashes.hash(ofWellFormed:)) ?? nil
    }

    private enum SessionState {
        case current, dueTouch, expired
    }

    /// Whether a session has ended, or its `last_seen_at` is to be written now.
    private func state(of session: StoredSession, at now: Int, renewing: Bool) -> SessionState {
        if now - session.createdAt >= lifetimeSeconds || now - session.lastSeenAt >= idleSeconds {
            return .expired
        }
        return renewing && now - session.lastSeenAt >= touchSeconds ? .dueTouch : .current
    }

    public func signInPath(returningTo request: Request) -> String { SignInPage.path(returningTo: request) }

    public func unauthorized(_ request: Request) -> HTTPError {
        Self.unauthorized("Sign in first, or send Authorization: Bearer TOKEN.")
    }

    static func unauthorized(_ message: String) -> HTTPError {
        HTTPError(.unauthorized, message, headers: ["WWW-Authenticate": #"Bearer realm="sectional""#])
    }

    /// Where the request really came from: behind a trusted proxy, the
    /// address it forwarded for (the last it added), else the connection's.
    public func clientAddress(of request: Request) -> String {
        let direct = request.clientAddress ?? "unknown"
        guard settings.trustedProxies.contains(direct), let forwarded = request.headers["X-Forwarded-For"] else { return direct }
        return forwarded.split(separator: ",").last.map { $0.filter { $0 != " " } } ?? direct
    }

    /// Whether cookies must be `Secure`: the request came over HTTPS through a trusted proxy.
    public func isSecure(_ request: Request) -> Bool { request.cameOverHTTPS(trustedProxies: settings.trustedProxies) }

    // MARK: Signing in and out

    enum SignInOutcome {
        /// `change`: the sessions the user holds changed, to announce.
        case signedIn(SignedIn<User>, token: String, change: LiveHub.Change)
        case refused
        case limited(retryAfter: Int)
        /// Too many passwords being checked at once: try again in a moment.
        case busy
    }

    /// A key attempts are counted under: how many it allows within the
    /// window, and the longest it makes an attempt past them wait.
    struct Throttle {
        let key: String
        let allowed: Int
        let longestDelay: Int
    }

    /// The throttles an attempt on `account` from `address` counts under.
    /// The pair of name and address is held back hardest; the name alone
    /// only briefly, so that nobody can lock a person out of their account
    /// from elsewhere; the address across names, against guessing many.
    func throttles(account: String, address: String) -> [Throttle] {
        let window = seconds(settings.failureWindow)
        return [
            Throttle(key: "pair:\(account) \(address)", allowed: settings.failuresAllowed, longestDelay: window),
            Throttle(key: "name:" + account, allowed: 4 * settings.failuresAllowed, longestDelay: 60),
            Throttle(key: "address:" + address, allowed: 4 * settings.failuresAllowed, longestDelay: window),
        ]
    }

    /// Seconds until an attempt under `throttle` may be checked, if it must
    /// wait: past the allowance, each attempt must follow the one before by
    /// a delay that doubles (1 s, 2 s, 4 s, …) up to the longest.
    static func wait(after attempts: [Int], _ throttle: Throttle, now: Int) -> Int? {
        let excess = attempts.count - throttle.allowed
        guard excess > 0, attempts.count >= 2 else { return nil }
        let delay = min(throttle.longestDelay, 1 << min(excess - 1, 30))
        let wait = attempts[attempts.count - 2] + delay - now
        return wait > 0 ? wait : nil
    }

    /// Checks a name and password, throttled with growing delays (OWASP's
    /// advice over a hard lock, which would let anyone lock anyone out). An
    /// unknown name costs the same hash as a wrong password, and gets the
    /// same answer; the hash waits its turn in the hasher's fair line.
    ///
    /// The attempt is counted before its check, so attempts sent at once
    /// see each other. A success stays counted under its pair, so signing
    /// in again and again is throttled too; it clears the name's failures
    /// and is not counted under the address, whose failures it never
    /// clears: signing in to one's own account must not reset the limit on
    /// guessing others'.
    func signIn(name: String, password: String, from address: String) async throws -> SignInOutcome {
        let account = name.lowercased()
        let throttles = throttles(account: account, address: address)
        let now = now()
        let attempt = SecretToken.generate()
        try await store.recordSignInFailure(keys: throttles.map(\.key), now: now, attempt: attempt)
        for throttle in throttles {
            let attempts = try await store.signInFailures(key: throttle.key, since: now - seconds(settings.failureWindow) + 1)
            if let wait = Self.wait(after: attempts, throttle, now: now) {
                // Refused unchecked: it does not lengthen the delay.
                try await store.forgetSignInAttempt(attempt)
                return .limited(retryAfter: wait)
            }
        }
        let found = try await store.user(named: name)
        guard let matches = await hasher.verifyOffThread(password, against: found?.passwordHash, account: account, client: address) else {
            try await store.forgetSignInAttempt(attempt)
            return .busy
        }
        guard matches, let user = found?.user else { return .refused }
        let (pair, byName) = (throttles[0].key, throttles[1].key)
        try await store.forgetSignInAttempt(attempt)
        try await store.clearSignInFailures(keys: [byName])
        try await store.recordSignInFailure(keys: [pair], now: now, attempt: attempt)
        // What has ended goes at each sign-in, the only thing that adds rows: sessions that ended
        // without a sign-out, attempts out of the window. The user's sessions are capped too.
        try await store.deleteExpired(
            sessionsCreatedBefore: now - lifetimeSeconds, seenBefore: now - idleSeconds,
            attemptsBefore: now - seconds(settings.failureWindow))
        let token = SecretToken.generate()
        let tokenHash = SecretToken.hash(token)
        let change = try await store.createSession(tokenHash: tokenHash, user: user.id, now: now, keepingAtMost: settings.sessionsPerUser)
        return .signedIn(Self.visitor(user, session: tokenHash), token: token, change: change)
    }

    /// Ends the request's session on the server.
    /// - Returns: the change to its user's sign-in data, to announce; `nil` when it had none.
    func signOut(_ request: Request) async throws -> LiveHub.Change? {
        guard let token = cookie.value(in: request), SecretToken.isWellFormed(token) else { return nil }
        return try await store.deleteSession(tokenHash: SecretToken.hash(token))
    }

    /// The `Set-Cookie` value of a new session.
    func sessionCookie(_ token: String, for request: Request) -> String {
        cookie.setting(token, maxAge: lifetimeSeconds, secure: isSecure(request))
    }

    private func seconds(_ duration: Duration) -> Int { Int(duration.components.seconds) }
}
