import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// Where a connection came from, kept as its bytes: most requests never ask
/// for it as text, so it is written out (`inet_ntop`) only when asked.
enum PeerAddress: Hashable, Sendable {
    case ipv4(in_addr_t)
    case ipv6(UInt64, UInt64)
    /// An address given as text, e.g. by a test.
    case given(String)

    /// The client's address as libmicrohttpd took it from `accept`: no system call.
    init?(of connection: OpaquePointer) {
        guard let address = sectional_connection_client_address(connection) else { return nil }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            self = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { .ipv4($0.pointee.sin_addr.s_addr) }
        case AF_INET6:
            self = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                withUnsafeBytes(of: ipv6.pointee.sin6_addr) {
                    .ipv6($0.loadUnaligned(as: UInt64.self), $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
                }
            }
        default: return nil
        }
    }

    /// `127.0.0.1`, `::1`; an IPv4 client of a dual-stack listener as `a.b.c.d`, as operators write it.
    var text: String? {
        switch self {
        case .given(let text): return text
        case .ipv4(let address): return Self.written(AF_INET, address)
        case .ipv6(let high, let low):
            guard let address = Self.written(AF_INET6, (high, low)) else { return nil }
            guard address.hasPrefix("::ffff:"), address.contains(".") else { return address }
            return String(address.dropFirst(7))
        }
    }

    /// `inet_ntop` of the address in `bytes`, into a buffer on the stack.
    private static func written<Bytes>(_ family: Int32, _ bytes: Bytes) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text in
            withUnsafePointer(to: bytes) { inet_ntop(family, $0, text.baseAddress, socklen_t(text.count)) }.map { String(cString: $0) }
        }
    }
}
