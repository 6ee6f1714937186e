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
    /// The daemon; `nil` once stopped.
    private let daemon: Mutex<DaemonHandle?>
    private let coreReference: Unmanaged<ServerCore>
    private let stopped = Atomic<Bool>(false)

    private struct DaemonHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    private init(port: Int, core: ServerCore, daemon: DaemonHandle, coreReference: Unmanaged<ServerCore>) {
        self.port = port
        self.core = core
        self.daemon = Mutex(daemon)
        self.coreReference = coreReference
    }

    /// Binds, starts the worker threads and begins answering.
    /// - Throws: `ServerError` naming what is wrong (busy port, bad host).
    public static func start(
        _ configuration: ServerConfiguration, responder: any Responder, logger: Logger = .standardError
    ) throws(ServerError) -> Server {
        let socket = try ListeningSocket.open(host: configuration.host, port: configuration.port)
        let core = ServerCore(responder: responder, logger: logger, configuration: configuration)
        let reference = Unmanaged.passRetained(core)

        var flags =
            MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_EPOLL.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue | MHD_USE_ERROR_LOG.rawValue
        if socket.isIPv6 { flags |= MHD_USE_IPv6.rawValue }
        var options: [MHD_OptionItem] = [
            MHD_OptionItem(option: .CONNECTION_TIMEOUT, value: configuration.connectionTimeout, ptr_value: nil),
            // Room above the limit, so that a newcomer is let in and the registry can shed for it.
            MHD_OptionItem(option: .CONNECTION_LIMIT, value: configuration.connectionLimit + Self.sheddingHeadroom, ptr_value: nil),
            MHD_OptionItem(option: .PER_IP_CONNECTION_LIMIT, value: configuration.perClientConnectionLimit, ptr_value: nil),
            MHD_OptionItem(option: .CONNECTION_MEMORY_LIMIT, value: configuration.connectionMemoryLimit, ptr_value: nil),
        ]
        // A pool of one logs a warning: leave the option out and use the polling thread.
        if configuration.threads > 1 {
            options.append(MHD_OptionItem(option: .THREAD_POOL_SIZE, value: configuration.threads, ptr_value: nil))
        }
        options.append(MHD_OptionItem(option: .END, value: 0, ptr_value: nil))

        let started = options.withUnsafeBufferPointer { items in
            sectional_start_daemon(
                UInt32(flags), socket.descriptor,
                MHDCallbacks.acceptUnlessStopping, reference.toOpaque(),
                MHDCallbacks.access, reference.toOpaque(),
                MHDCallbacks.requestStarted, reference.toOpaque(),
                MHDCallbacks.completed, reference.toOpaque(),
                MHDCallbacks.connectionChanged, reference.toOpaque(),
                items.baseAddress)
        }
        guard let started else {
            close(socket.descriptor)
            reference.release()
            throw .daemonRefused
        }
        let server = Server(port: socket.port, core: core, daemon: DaemonHandle(pointer: started), coreReference: reference)
        core.connections.startSweeping()
        return server
    }

    /// Connections libmicrohttpd may hold beyond the configured limit: the
    /// newest ones, each of which makes the registry close another.
    public static let sheddingHeadroom = 64

    /// Streamed bodies still in memory.
    var liveStreams: Int { core.liveStreams.load(ordering: .relaxed) }

    /// Requests begun and not yet completed.
    public var requestsInFlight: Int { core.inFlight.load(ordering: .relaxed) }

    /// From now on every answer carries `Connection: close`: before a stop,
    /// so that a proxy's kept-alive connections end at an answer, not in the
    /// middle of the next request (which it could not send elsewhere if it is a POST).
    public func beginDraining() { core.isDraining.store(true, ordering: .relaxed) }

    /// Connections open, idle keep-alive ones included; 0 once stopped.
    public var openConnections: Int {
        daemon.withLock { daemon in daemon.map { Int(sectional_daemon_connection_count($0.pointer)) } ?? 0 }
    }

    /// Stops gracefully: closes each new connection as it comes, closes at once those not
    /// in the middle of a request, lets requests in flight finish within the
    /// configuration's grace period, answers any still waiting with 503,
    /// then closes every connection. Safe to call twice.
    public func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        guard let handle = daemon.withLock({ $0 }) else { return }
        core.isStopping.store(true, ordering: .relaxed)
        core.connections.stopSweeping()
        // New connections are closed as they come (see `MHDCallbacks.acceptUnlessStopping`), not
        // refused by `MHD_quiesce_daemon`: with a thread pool on epoll, libmicrohttpd 0.9.75 aborts
        // the process when a worker takes the listening socket out of its epoll set at the moment
        // quiesce does (both remove it; the second fails and panics).
        core.connections.shutDownIdle()
        let grace = core.configuration.shutdownGrace
        waitForRequestsInFlight(upTo: grace)
        core.resumeAllSuspended()
        // Let the 503s just queued go out before every connection closes.
        waitForRequestsInFlight(upTo: min(grace, .seconds(1)))
        daemon.withLock { $0 = nil }
        // It closes the listening socket too.
        MHD_stop_daemon(handle.pointer)
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

    private func waitForRequestsInFlight(upTo limit: Duration) {
        let deadline = ContinuousClock.now + limit
        while core.inFlight.load(ordering: .relaxed) > 0 && ContinuousClock.now < deadline {
            usleep(5_000)
        }
    }

    deinit { stop() }
}
