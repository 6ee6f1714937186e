#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A bound, listening TCP socket. The server makes it itself, rather than
/// letting libmicrohttpd bind, so that a busy port is a clear error.
struct ListeningSocket {
    let descriptor: Int32
    let port: Int
    let isIPv6: Bool

    /// The acceptor's socket: a port another program holds is a clear error.
    static func open(host: String, port: Int) throws(ServerError) -> ListeningSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        guard (0...65535).contains(port), getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .cannotResolve(host: host)
        }
        defer { freeaddrinfo(list) }

        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket(operation: "socket", errno: errno) }
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        guard bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let error = errno
            close(fd)
            switch error {
            case EADDRINUSE: throw .addressInUse(host: host, port: port)
            case EADDRNOTAVAIL: throw .cannotResolve(host: host)
            default: throw .socket(operation: "bind", errno: error)
            }
        }
        guard listen(fd, 1024) == 0 else {
            let error = errno
            close(fd)
            throw .socket(operation: "listen", errno: error)
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return ListeningSocket(descriptor: fd, port: boundPort(fd) ?? port, isIPv6: first.pointee.ai_family == AF_INET6)
    }

    private static func boundPort(_ fd: Int32) -> Int? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return nil }
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            switch family {
            case AF_INET: pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
            case AF_INET6: pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            default: nil
            }
        }
    }
}
