import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Takes every new connection on the server's port and hands it to a daemon
/// by what its first request asks for. An event stream stays open as long
/// as the page that opened it, idle nearly all that time, so it goes to a
/// daemon whose connections get a stream's small buffer; everything else
/// goes to the pages' daemons, in turn. A connection whose head has not
/// come within `window` goes to a page daemon too, where the registry's
/// head deadline takes over.
///
/// Why not one daemon for both: libmicrohttpd gives every connection of a
/// daemon the same buffer, sized for a page's request head, and touches two
/// of its pages however little a stream needs; and each time it resumes
/// any connection it walks all its suspended ones, which beating streams
/// made a page's request wait for.
final class Acceptor: Sendable {
    struct Daemons: @unchecked Sendable {
        let pages: [OpaquePointer]
        let streams: [OpaquePointer]
        var all: [OpaquePointer] { pages + streams }
    }

    /// Bytes of a head looked at: a longer head goes to a page daemon, whose buffer holds it.
    static let headLimit = 2048
    /// Connections waiting for their first bytes at most; past it, the oldest goes to a page daemon.
    static let waitingLimit = 1024

    private let listening: Int32
    private let daemons: Daemons
    private let window: UInt64
    private let stopping = Atomic<Bool>(false)
    private let ended = DispatchSemaphore(value: 0)

    init(listening: Int32, daemons: Daemons, window: Duration) {
        self.listening = listening
        self.daemons = daemons
        let (seconds, attoseconds) = window.components
        self.window = UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds / 1_000_000_000))
    }

    /// Starts accepting, on a thread of its own.
    func start() {
        let me = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                let acceptor = Unmanaged<Acceptor>.fromOpaque(raw!).takeRetainedValue()
                var loop = AcceptLoop(acceptor)
                loop.run()
                acceptor.ended.signal()
                return nil
            }, me)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    /// Stops accepting, closes the connections still waiting for a head and
    /// the listening socket; returns once no connection is handed on any more.
    func stop() {
        stopping.store(true, ordering: .releasing)
        // Wakes the thread's poll: the socket reads as hung up, and accepting fails.
        shutdown(listening, Int32(SHUT_RD))
        ended.wait()
        close(listening)
    }

    /// The accepting thread's own state.
    private struct AcceptLoop {
        private struct Waiting {
            let socket: Int32
            let deadline: UInt64
            var address: sockaddr_storage
            let length: socklen_t
        }

        let acceptor: Acceptor
        /// Connections whose first bytes have not come, oldest first (the window is the same for all).
        private var waiting: [Waiting] = []
        private var nextPageDaemon = 0
        private var nextStreamDaemon = 0
        /// While out of descriptors, the listening socket rests until then.
        private var acceptingAgainAt: UInt64?
        private var head = [UInt8](repeating: 0, count: Acceptor.headLimit)

        init(_ acceptor: Acceptor) { self.acceptor = acceptor }

        mutating func run() {
            while !acceptor.stopping.load(ordering: .acquiring) {
                let listens = acceptingAgainAt == nil
                var descriptors = waiting.map { pollfd(fd: $0.socket, events: Int16(POLLIN), revents: 0) }
                if listens { descriptors.append(pollfd(fd: acceptor.listening, events: Int16(POLLIN), revents: 0)) }
                // Interrupted, or out of memory for a moment: the next turn asks again.
                guard poll(&descriptors, nfds_t(descriptors.count), timeout()) >= 0 else { continue }
                // Each connection whose first bytes came is decided; the others wait on.
                var still: [Waiting] = []
                for (entry, polled) in zip(waiting, descriptors) {
                    if polled.revents == 0 { still.append(entry) } else { decide(entry) }
                }
                waiting = still
                handOnOverdue()
                if !listens, let again = acceptingAgainAt, DispatchTime.now().uptimeNanoseconds >= again { acceptingAgainAt = nil }
                if listens, descriptors.last?.revents != 0 { acceptNew() }
            }
            for entry in waiting { close(entry.socket) }
        }

        private func timeout() -> Int32 {
            guard let next = [waiting.first?.deadline, acceptingAgainAt].compactMap({ $0 }).min() else { return -1 }
            let now = DispatchTime.now().uptimeNanoseconds
            return next <= now ? 0 : Int32(min((next - now + 999_999) / 1_000_000, 60_000))
        }

        private mutating func acceptNew() {
            for _ in 0..<64 {
                var address = sockaddr_storage()
                var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
                let socket = withUnsafeMutablePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { accept(acceptor.listening, $0, &length) }
                }
                guard socket >= 0 else {
                    switch errno {
                    case EINTR, ECONNABORTED, EPROTO: continue
                    // Out of descriptors: the connection stays in the backlog, and the
                    // listening socket, still readable, is left alone a moment.
                    case EMFILE, ENFILE, ENOBUFS, ENOMEM: acceptingAgainAt = DispatchTime.now().uptimeNanoseconds + 100_000_000
                    default: break
                    }
                    return
                }
                _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
                let entry = Waiting(
                    socket: socket, deadline: DispatchTime.now().uptimeNanoseconds + acceptor.window, address: address, length: length)
                // Most clients send the head with the handshake: read at once, it needs no wait.
                guard case .nothingYet = peek(entry.socket) else {
                    decide(entry)
                    continue
                }
                if waiting.count >= Acceptor.waitingLimit { handOn(waiting.removeFirst(), .other) }
                waiting.append(entry)
            }
        }

        private mutating func handOnOverdue() {
            let now = DispatchTime.now().uptimeNanoseconds
            let overdue = waiting.prefix { $0.deadline <= now }.count
            for entry in waiting.prefix(overdue) { handOn(entry, .other) }
            waiting.removeFirst(overdue)
        }

        /// Hands the connection on by its first bytes, or closes it if the client has gone.
        private mutating func decide(_ entry: Waiting) {
            switch peek(entry.socket) {
            case .nothingYet: handOn(entry, .other)
            case .gone: close(entry.socket)
            case .head(let kind): handOn(entry, kind)
            }
        }

        private enum Peeked {
            case nothingYet
            case gone
            case head(FirstRequest)
        }

        /// What the first bytes say, left in the socket for the daemon to read. A head that came
        /// in part goes to a page daemon, which waits for the rest: looked at again, it would
        /// read as ready at every poll until it is complete.
        private mutating func peek(_ socket: Int32) -> Peeked {
            let count = head.withUnsafeMutableBytes { recv(socket, $0.baseAddress, $0.count, Int32(MSG_PEEK | MSG_DONTWAIT)) }
            if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return .nothingYet }
            guard count > 0 else { return .gone }
            let kind = FirstRequest(head.prefix(count), limit: head.count)
            return .head(kind == .incomplete ? .other : kind)
        }

        /// libmicrohttpd owns the socket from here, and closes it if its daemon refuses it.
        private mutating func handOn(_ entry: Waiting, _ kind: FirstRequest) {
            let daemon: OpaquePointer
            if kind == .eventStream, !acceptor.daemons.streams.isEmpty {
                daemon = acceptor.daemons.streams[nextStreamDaemon % acceptor.daemons.streams.count]
                nextStreamDaemon &+= 1
            } else {
                daemon = acceptor.daemons.pages[nextPageDaemon % acceptor.daemons.pages.count]
                nextPageDaemon &+= 1
            }
            var address = entry.address
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon, entry.socket, $0, entry.length) }
            }
        }
    }
}
