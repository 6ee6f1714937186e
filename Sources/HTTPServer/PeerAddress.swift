#if canImport(Glibc)
    import Glibc
#endif

/// The address at the other end of a connected socket, as text.
enum PeerAddress {
    static func of(socket: Int32) -> String? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(socket, $0, &length) }
        }
        guard status == 0 else { return nil }
        let family = Int32(storage.ss_family)
        // inet_ntop writes into a buffer on the stack: this runs for every request.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { text -> String? in
            let written: UnsafePointer<CChar>? = withUnsafePointer(to: &storage) { pointer in
                switch family {
                case AF_INET:
                    pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                        withUnsafePointer(to: address.pointee.sin_addr) { inet_ntop(AF_INET, $0, text.baseAddress, socklen_t(text.count)) }
                    }
                case AF_INET6:
                    pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                        withUnsafePointer(to: address.pointee.sin6_addr) { inet_ntop(AF_INET6, $0, text.baseAddress, socklen_t(text.count)) }
                    }
                default: nil
                }
            }
            guard let written else { return nil }
            let address = String(cString: written)
            // A dual-stack listener sees IPv4 clients as ::ffff:a.b.c.d: name them as operators write them.
            guard family == AF_INET6, address.hasPrefix("::ffff:"), address.contains(".") else { return address }
            return String(address.dropFirst(7))
        }
    }
}
