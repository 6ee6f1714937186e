import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// An HTTP server: owns a libmicrohttpd daemon that answers with a `Responder`.
///
/// ```swift
/// let server = try Server.start(configuration, responder: router)
/// print("listening on", server.port)
/// server.stop()
/// ```
public final class Server: Sendable {
    /// The port it listens on (the real one when the configuration asked for 0).
    public let port: Int
    private let core: ServerCore
    /// The pages' daemons, then the streams', each a thread of its own; `nil` once stopped.
    private let daemons: Mutex<Acceptor.Daemons?>
    private let acceptor: Acceptor
    private let coreReference: Unmanaged<ServerCore>
    private let stopped = Atomic<Bool>(false)

    private init(port: Int, core: ServerCore, daemons: Acceptor.Daemons, acceptor: Acceptor, coreReference: Unmanaged<ServerCore>) {
        self.port = port
        self.core = core
        self.daemons = Mutex(daemons)
        self.acceptor = acceptor
        self.coreReference = coreReference
    }

    /// Binds, starts the worker threads and begins answering.
    /// - Throws: `ServerError` naming what is wrong (busy port, bad host).
    public static func start(
        _ configuration: ServerConfiguration, responder: any Responder, logger: Logger = .standardError
    ) throws(ServerError) -> Server {
        let workers = max(1, configuration.threads)
        let descriptors = DescriptorLimit.raise(toAtLeast: DescriptorLimit.held(by: configuration))
        if descriptors < configuration.connectionLimit + 64 {
            logger.warning(
                "only \(descriptors) open files are allowed (ulimit -n): fewer than the \(configuration.connectionLimit) connections allowed")
        }
        let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port)
        let core = ServerCore(responder: responder, logger: logger, configuration: configuration)
        let reference = Unmanaged.passRetained(core)
        var daemons: [OpaquePointer] = []
        let abandon = { (daemons: [OpaquePointer]) in
            for daemon in daemons { MHD_stop_daemon(daemon) }
            close(socket.descriptor)
            reference.release()
        }
        for isStreams in [false, true] {
            for _ in 0..<workers {
                guard let daemon = startDaemon(of: workers, isStreams: isStreams, isIPv6: socket.isIPv6, configuration, core: reference)
                else {
                    abandon(daemons)
                    throw .daemonRefused
                }
                daemons.append(daemon)
            }
        }
        let handedTo = Acceptor.Daemons(pages: Array(daemons.prefix(workers)), streams: Array(daemons.dropFirst(workers)))
        // A client sends its head right after the handshake, so its first bytes come within
        // microseconds; the registry's limits and head deadline apply from the hand-over.
        let acceptor = Acceptor(
            listening: socket.descriptor, daemons: handedTo, window: min(.milliseconds(50), configuration.requestHeadTimeout / 10))
        let server = Server(port: socket.port, core: core, daemons: handedTo, acceptor: acceptor, coreReference: reference)
        core.connections.startSweeping()
        acceptor.start()
        return server
    }

    /// One worker thread's daemon; the acceptor hands it its connections.
    /// It holds its share of the connection limit; the registry counts
    /// connections per client over all the daemons, each of which may hold
    /// the whole per-client limit.
    private static func startDaemon(
        of workers: Int, isStreams: Bool, isIPv6: Bool, _ configuration: ServerConfiguration, core: Unmanaged<ServerCore>
    ) -> OpaquePointer? {
        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        // Room above its share, so that a newcomer is let in and the registry can shed for it
        // (ServerConfiguration.connectionLimit says why each daemon has all of it).
        let connectionShare = (configuration.connectionLimit + workers - 1) / workers + Self.sheddingHeadroom
        let options = [
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: connectionShare, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.perClientConnectionLimit, ptr_value: nil),
            MHD_OptionItem(
                option: .CONNECTION_MEMORY_LIMIT,
                value: isStreams ? configuration.streamConnectionMemoryLimit : configuration.connectionMemoryLimit, ptr_value: nil),
            // Strict within the RFCs, as advised for public servers: no bare LF line ends, no
            // folded fields, no whitespace in the target; each is a 400 from libmicrohttpd.
            MHD_OptionItem(option: .CLIENT_DISCIPLINE_LVL, value: 1, ptr_value: nil),
            MHD_OptionItem(option: .END, value: 0, ptr_value: nil),
        ]
        let cls = core.toOpaque()
        return options.withUnsafeBufferPointer { items in
            sectional_start_daemon(
                UInt32(flags),
                MHDCallbacks.acceptUnlessStopping, cls,
                MHDCallbacks.access, cls,
                MHDCallbacks.requestStarted, cls,
                MHDCallbacks.completed, cls,
                isStreams ? MHDCallbacks.streamConnectionChanged : MHDCallbacks.connectionChanged, cls,
                MHDCallbacks.log, cls,
                items.baseAddress)
        }
    }

    /// Connections each daemon may hold beyond its share of the configured
    /// limit: the newest ones, each of which makes the registry close another.
    public static let sheddingHeadroom = 64

    /// Streamed bodies still in memory.
    var liveStreams: Int { core.liveStreams.load(ordering: .relaxed) }

    /// Requests begun and not yet completed.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// From now on every answer carries `Connection: close`: before a stop,
    /// so that a proxy's kept-alive connections end at an answer, not in the
    /// middle of the next request (which it could not send elsewhere if it is a POST).
    public func beginDraining() { core.isDraining.store(true, ordering: .relaxed) }

    /// Connections the streams' daemons hold: those that opened with an event stream.
    var openStreamConnections: Int {
        daemons.withLock { daemons in
            daemons?.streams.reduce(0) { $0 + Int(sectional_daemon_connection_count($1)) } ?? 0
        }
    }

    /// Connections open, idle keep-alive ones included; 0 once stopped.
    public var openConnections: Int {
        daemons.withLock { daemons in
            daemons?.all.reduce(0) { $0 + Int(sectional_daemon_connection_count($1)) } ?? 0
        }
    }

    /// Stops gracefully: closes each new connection as it comes, closes at once those not
    /// in the middle of a request, lets requests in flight finish within the
    /// configuration's grace period, answers any still waiting with 503,
    /// then closes every connection. Safe to call twice.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let handles = daemons.withLock({ $0 }) else { return }
        core.isStopping.store(true, ordering: .sequentiallyConsistent)
        core.connections.stopSweeping()
        // New connections are still handed on, and each daemon closes them as they come
        // (`MHDCallbacks.acceptUnlessStopping`): the port stays open until the daemons stop.
        core.connections.shutDownIdle()
        let grace = core.configuration.shutdownGrace
        waitForRequestsInFlight(upTo: grace)
        core.resumeAllSuspended()
        // Let the 503s just queued go out before every connection closes.
        waitForRequestsInFlight(upTo: min(grace, .seconds(1)))
        daemons.withLock { $0 = nil }
        // No connection is handed to a daemon from here on.
        acceptor.stop()
        for daemon in handles.all { MHD_stop_daemon(daemon) }
        coreReference.release()
    }

    /// `stop()` for async code: stopping waits for requests in flight, so
    /// it runs on a thread of its own, never on one a task needs.
    public func shutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue(label: "sectional.server.stop").async {
                self.stop()
                continuation.resume()
            }
        }
    }

    /// Waits until no request is in flight, or `limit` has passed: woken by
    /// the last one to complete, with no polling.
    private func waitForRequestsInFlight(upTo limit: Duration) {
        let (seconds, attoseconds) = limit.components
        let deadline = DispatchTime.now() + .nanoseconds(Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000))
        // Each completion that reached none signals once: a signal from before is used up here, then the count is read again.
        while core.inFlight.load(ordering: .sequentiallyConsistent) > 0 {
            guard core.lastRequestDone.wait(timeout: deadline) == .success else { return }
        }
    }

    deinit { stop() }
}
