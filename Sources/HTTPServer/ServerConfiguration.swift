#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif

/// How a `Server` listens and what it tolerates. The defaults are safe for
/// the open internet: libmicrohttpd's own (no timeout, no per-client limit) are not.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// `0` picks a free port; `Server.port` tells which.
    public var port = 8080
    /// Worker threads, each with its own epoll set.
    public var threads = ServerConfiguration.processorCount
    /// Seconds a connection may sit idle before it is closed.
    public var connectionTimeout = 15
    /// Open connections at most, over all clients.
    public var connectionLimit = 1024
    /// Open connections at most from one client address.
    public var perClientConnectionLimit = 256
    /// Bytes of buffer per connection: the bound on a request's line and headers.
    public var connectionMemoryLimit = 32 * 1024
    /// Bytes of request body read (and dropped) before the answer is 413.
    public var requestBodyLimit = 64 * 1024
    /// One line per request on the logger: method, path, status, bytes, microseconds.
    public var accessLog = true
    /// How long `stop()` lets requests in flight finish.
    public var shutdownGrace: Duration = .seconds(10)

    public init() {}

    public static var processorCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
