#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The process's limit on open files, which caps its connections.
public enum DescriptorLimit {
    /// Raises the soft limit to the hard one, as far as `needed` asks: a
    /// shell's default soft limit (1,024) is below what a server with many
    /// open pages holds, and the hard limit is the administrator's to set.
    /// - Returns: the soft limit now.
    @discardableResult
    public static func raise(toAtLeast needed: Int) -> Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 0 }
        let wanted = min(rlim_t(needed), limit.rlim_max)
        if limit.rlim_cur < wanted {
            limit.rlim_cur = wanted
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) != 0 { _ = getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) }
        }
        return Int(clamping: limit.rlim_cur)
    }

    /// How many of `wanted` more connections (open streams) the limit on
    /// open files leaves room for beside what a server configured as
    /// `pages` holds, once the soft limit is raised as far as they need:
    /// streams past it would take the descriptors pages are answered with.
    public static func room(for wanted: Int, besides pages: ServerConfiguration) -> Int {
        let held = held(by: pages)
        return max(0, min(wanted, raise(toAtLeast: held + wanted) - held))
    }

    /// What a server configured so may hold at once: its connections (event
    /// streams included); for each worker thread, the room above its share a
    /// newcomer to its pages' daemon takes before the registry sheds, and one
    /// more; and 256 for the daemons' epoll sets and wake-ups, the acceptor's
    /// socket, the files it sends and the database's.
    static func held(by configuration: ServerConfiguration) -> Int {
        configuration.connectionLimit + max(1, configuration.threads) * (Server.sheddingHeadroom + 1) + 256
    }
}
