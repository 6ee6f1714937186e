import HTTPServer
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Middleware that limits how often each client may send the requests it
/// applies to (form posts, by default), and answers the rest
/// `429 Too Many Requests` with `Retry-After`, as the router answers errors.
///
/// Each client has a bucket of `burst` requests that refills at `limit` per
/// `period`: a person's clicks pass, a script's flood does not. Behind a
/// proxy, give `client` the address the proxy forwarded for
/// (`Accounts.clientAddress(of:)`), or every client shares the proxy's bucket.
///
/// ```swift
/// router.use(RateLimit(60, per: .seconds(60), client: accounts.clientAddress(of:)))
/// ```
public struct RateLimit: Middleware {
    /// The requests a client may send in a burst, at most.
    public let burst: Int
    /// How long a used request takes to come back.
    private let refill: Duration
    private let applies: @Sendable (Request) -> Bool
    private let client: @Sendable (Request) -> String
    private let now: @Sendable () -> Duration
    private let buckets: Buckets

    /// - Parameters:
    ///   - limit: requests a client may send each `period`, over time.
    ///   - period: the period `limit` is counted over.
    ///   - burst: requests a client may send at once after a rest; `limit` when not given.
    ///   - clients: the clients kept track of at most; past it, those that have rested are forgotten,
    ///     then those nearest to rested.
    ///   - applies: which requests count; the others pass untouched.
    ///   - client: who sent a request.
    ///   - now: a monotonic time (a test's own clock); the process's by default.
    public init(
        _ limit: Int, per period: Duration, burst: Int? = nil, clients: Int = 10_000,
        applies: @escaping @Sendable (Request) -> Bool = { $0.method == .post },
        client: @escaping @Sendable (Request) -> String = { $0.clientAddress ?? "unknown" },
        now: @escaping @Sendable () -> Duration = RateLimit.processTime
    ) {
        precondition(limit > 0 && period > .zero && (burst ?? limit) > 0, "A rate limit lets at least one request through")
        self.burst = burst ?? limit
        refill = period / limit
        self.applies = applies
        self.client = client
        self.now = now
        buckets = Buckets(capacity: clients)
    }

    public func handles(_ request: Request) -> Bool { applies(request) }

    public func reply(to request: Request, next: @escaping Next) throws(HTTPError) -> Reply {
        if let wait = buckets.take(from: Self.bucket(of: client(request)), burst: burst, refill: refill, now: now()) {
            let seconds = max(1, Int((wait / .seconds(1)).rounded(.up)))
            throw HTTPError(
                .tooManyRequests, "Too many requests: try again in \(seconds) s.", headers: ["Retry-After": String(seconds)])
        }
        return next(request)
    }

    /// Whose bucket a client's requests take from: an IPv6 address's /64, the
    /// block one host is given (it may send from any address of it); else the address.
    static func bucket(of client: String) -> String {
        var address = in6_addr()
        guard client.contains(":"), inet_pton(AF_INET6, client, &address) == 1 else { return client }
        return withUnsafeBytes(of: address) { bytes in
            bytes.prefix(8).map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + "/64"
        }
    }

    /// Time since this was first read, on a clock that never goes back.
    public static let processTime: @Sendable () -> Duration = {
        let start = ContinuousClock.now
        return { start.duration(to: .now) }
    }()
}

/// Each client's bucket: the time it will be full again, which says how many requests it holds.
private final class Buckets: Sendable {
    private let capacity: Int
    private let fullAt = Mutex<[String: Duration]>([:])

    init(capacity: Int) { self.capacity = capacity }

    /// Takes one request from `client`'s bucket; `nil` when it had one, else how long until it has.
    func take(from client: String, burst: Int, refill: Duration, now: Duration) -> Duration? {
        fullAt.withLock { fullAt in
            // A bucket full at `full` lacks (full - now) / refill requests; taking one adds a refill.
            let full = max(fullAt[client] ?? now, now)
            let lacking = full - now
            if lacking + refill > refill * burst { return lacking + refill - refill * burst }
            if fullAt[client] == nil && fullAt.count >= capacity { makeRoom(in: &fullAt, now: now) }
            fullAt[client] = full + refill
            return nil
        }
    }

    /// Forgets the clients whose buckets are full again (they are as new);
    /// if that leaves more than three quarters of `capacity`, those nearest
    /// to full too, so that the next quarter of newcomers pays no such walk.
    private func makeRoom(in fullAt: inout [String: Duration], now: Duration) {
        fullAt = fullAt.filter { $0.value > now }
        let kept = capacity * 3 / 4
        guard fullAt.count > kept else { return }
        let latest = fullAt.sorted { $0.value > $1.value }.prefix(kept)
        fullAt = Dictionary(uniqueKeysWithValues: latest.map { ($0.key, $0.value) })
    }
}
