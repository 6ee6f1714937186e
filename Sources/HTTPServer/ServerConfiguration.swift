#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// How a `Server` listens and what it tolerates. The defaults are safe for
/// the open internet: libmicrohttpd's own (no timeout, no per-client limit) are not.
public struct ServerConfiguration: Sendable {
    /// The address to listen on: `127.0.0.1` (this machine only) by default, `0.0.0.0` for every interface.
    public var host = "127.0.0.1"
    /// `0` picks a free port; `Server.port` tells which.
    public var port = 8080
    /// Worker threads, each a libmicrohttpd daemon with its own epoll set
    /// for pages, and as many for event streams; one acceptor thread takes
    /// the port's connections and hands them to the daemons in turn.
    public var threads = ServerConfiguration.processorCount
    /// Seconds a connection may sit idle in the middle of a request or an
    /// answer before it is closed: frees what clients that vanished mid-way
    /// hold. (Between requests, and while a head arrives, `requestHeadTimeout`
    /// closes sooner.) Not a bound on slow clients: one byte before each
    /// timeout keeps a connection alive; `requestHeadTimeout` and the limits
    /// below bound those.
    public var connectionTimeout = 15
    /// How long a request's line and headers may take to arrive, counted
    /// from the connection's start or the end of its previous request. A
    /// client sending a byte at a time meets this bound, unlike the idle
    /// timeout; a connection past it is closed.
    public var requestHeadTimeout: Duration = .seconds(10)
    /// Open connections at most, over all clients: a bound on the memory and
    /// descriptors an attack can take (each holds `connectionMemoryLimit`).
    /// A new connection past it makes room by closing the one that has
    /// waited longest for a request head, so half-sent heads cannot lock
    /// other clients out. Each daemon (a worker thread has one for pages and
    /// one for event streams) holds an equal share of it and
    /// `Server.sheddingHeadroom` (64) more for that moment: a daemon at its
    /// own limit closes a newcomer before the registry can shed for it. The
    /// true ceiling on descriptors and memory is the limit and 64 a daemon.
    public var connectionLimit = 1024
    /// Open connections at most from one client address: a quarter of
    /// `connectionLimit`, so one attacking address (1,000 slowloris or
    /// slow-read connections in `make abuse`) gets 256 and every other client
    /// still finds room, while a browser (6 per host) or a busy NAT stays far
    /// below it. Behind a reverse proxy every client has the proxy's address:
    /// raise it there, and limit per client in the proxy.
    public var perClientConnectionLimit = 256
    /// Bytes of buffer per connection: the bound on a request's line and
    /// headers (past it, 431 or 414). Above 32 KiB libmicrohttpd maps each
    /// connection's buffer on its own and unmaps it when the connection
    /// closes; at 32 KiB or less it takes it from malloc, whose arenas keep
    /// what closed connections held (3.4 MB after 64 connections). A whole
    /// number of pages, since the mapping is rounded up to one.
    public var connectionMemoryLimit = 36 * 1024
    /// Bytes of buffer per connection that opens with an event stream (a
    /// `GET` whose head, at most 2 KiB, accepts `text/event-stream`): it
    /// holds the head and an event at a time, for as long as the page stays
    /// open. At 32 KiB or less it comes from malloc, blocks side by side,
    /// where a mapping of its own keeps two whole pages resident: an idle
    /// stream took 12.5 kB at 8 KiB, 15.9 kB with the pages' 36 KiB. Every
    /// answer on such a connection closes it, so this buffer never serves a
    /// page's request.
    public var streamConnectionMemoryLimit = 8 * 1024
    /// Bytes of request body read (and dropped) before the answer is 413.
    public var requestBodyLimit = 64 * 1024
    /// One line per request on the logger, in its format: method, path,
    /// status, bytes, microseconds; as JSON, the line is a record of its own.
    public var accessLog = true
    /// Told of every request once it is complete: metrics.
    public var requestObserver: (@Sendable (CompletedRequest) -> Void)?
    /// How long `stop()` lets requests in flight finish.
    public var shutdownGrace: Duration = .seconds(10)
    /// Runs the start of each request's answer: it calls its argument once,
    /// on the server's thread, which answers until the answer first waits.
    /// A data layer gathers what is read there (`StatementBurst.together`
    /// in SectionalSQL: one SQLite snapshot for what the request reads
    /// before it first waits, and PostgreSQL statements sent together).
    /// `nil`: nothing around.
    public var startingRequests: (@Sendable (_ startAnswer: () -> Void) -> Void)?

    /// The defaults, safe for the open internet.
    public init() {}

    /// The number of processor cores online: the default worker thread count.
    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}

/// How the access log writes a line.

/// A request as it ended, for metrics.
public struct CompletedRequest: Sendable {
    /// The request's method.
    public var method: HTTPMethod
    /// The route pattern that answered; `static` for a file, `unmatched` when none did.
    public var route: String
    /// 0 when the client left before an answer was queued.
    public var status: Int
    /// Body bytes sent.
    public var bytes: UInt64
    /// From the request line to the last byte sent.
    public var duration: Duration
}
