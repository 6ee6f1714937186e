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
}
