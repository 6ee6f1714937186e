import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Accepts the connections of a listening socket on a thread of its own and
/// hands each to the daemon, which gives it to worker thread `socket % N`:
/// consecutive connections alternate between the workers.
///
/// Left to accept by itself, libmicrohttpd 0.9.75 wakes every worker for a
/// new connection and lets the first take up to eleven in a row, so a burst
/// (a load generator's 64, a proxy's pool) landed unevenly: 20 and 44, or
/// all 64 on one thread, which then ran flat out while the other idled.
/// The accept policy, the per-client limit and the registry still see each
/// connection, as libmicrohttpd's own accepting let them.
final class Acceptor: Sendable {
    private let listening: Int32
    private let daemon: DaemonPointer
    /// At this many open connections no more are accepted: they wait in the
    /// kernel's queue, as libmicrohttpd left them at its limit.
    private let connectionLimit: Int
    private let isStopping = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    struct DaemonPointer: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    init(listening: Int32, daemon: OpaquePointer, connectionLimit: Int) {
        self.listening = listening
        self.daemon = DaemonPointer(pointer: daemon)
        self.connectionLimit = connectionLimit
    }

    /// Starts accepting, on a new thread.
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { context in
                let acceptor = Unmanaged<Acceptor>.fromOpaque(context!).takeRetainedValue()
                acceptor.acceptUntilStopped()
                acceptor.finished.signal()
                return nil
            }, context)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }

    /// Stops accepting and waits until the thread has: after this no
    /// connection reaches the daemon. The listening socket stays open.
    func stop() {
        isStopping.store(true, ordering: .releasing)
        // Wakes the blocked accept(2) (it fails with EINVAL), and every later one.
        shutdown(listening, Int32(SHUT_RDWR))
        finished.wait()
    }

    private func acceptUntilStopped() {
        while !isStopping.load(ordering: .acquiring) {
            if Int(sectional_daemon_connection_count(daemon.pointer)) >= connectionLimit {
                usleep(10_000)
                continue
            }
            var address = sockaddr_storage()
            var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
            let socket = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    accept(listening, $0, &length)
                }
            }
            guard socket >= 0 else {
                // Out of descriptors or memory, say: the connection waits in the queue meanwhile.
                if errno != EINTR && errno != ECONNABORTED { usleep(10_000) }
                continue
            }
            // Not inherited by a child process; libmicrohttpd makes it non-blocking, and closes it when it refuses it.
            _ = fcntl(socket, F_SETFD, FD_CLOEXEC)
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { MHD_add_connection(daemon.pointer, socket, $0, length) }
            }
        }
    }
}
