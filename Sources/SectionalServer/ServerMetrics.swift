import HTTPServer
import Sectional

#if canImport(Glibc)
    import Glibc
#endif

/// The metrics every Sectional server has: requests by route, method and
/// status, their durations, each section's load by page, section and
/// outcome, requests in flight, and the process's memory, CPU and files.
///
/// ```swift
/// let metrics = ServerMetrics()
/// configuration.requestObserver = metrics.observe
/// pageSettings.onLoadReport = metrics.observe
/// ```
public final class ServerMetrics: Sendable {
    /// Where they are kept; an app adds its own families to it.
    public let registry: MetricsRegistry
    private let requests: Counter
    private let durations: Histogram
    private let loads: Histogram

    /// The standard families, in a new registry unless given one.
    public init(registry: MetricsRegistry = MetricsRegistry()) {
        self.registry = registry
        requests = registry.counter(
            "sectional_http_requests_total", "HTTP requests answered, by route, method and status.", labels: ["route", "method", "status"])
        durations = registry.histogram(
            "sectional_http_request_duration_seconds", "From the request line to the last byte, by route.", labels: ["route"])
        loads = registry.histogram(
            "sectional_section_load_duration_seconds", "Section data loads, by page, section and outcome (ok, failed, timed-out).",
            labels: ["page", "section", "outcome"])
        ProcessMetrics.register(in: registry)
    }

    /// Counts a completed request: a `ServerConfiguration.requestObserver`.
    @Sendable public func observe(_ request: CompletedRequest) {
        // Any token is a method to HTTP: the label takes the standard ones only, so a client cannot grow it.
        let method = Self.standardMethods.contains(request.method.rawValue) ? request.method.rawValue : "other"
        requests.increment([request.route, method, request.status == 0 ? "none" : String(request.status)])
        durations.observe(request.duration, [request.route])
    }

    /// Records a page's loads: a `PageSettings.onLoadReport`.
    @Sendable public func observe(page: String, report: LoadReport) {
        for outcome in report.outcomes { loads.observe(outcome.duration, [page, outcome.id.rawValue, outcome.status.name]) }
    }

    private static let standardMethods: Set<String> = ["GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "CONNECT", "TRACE"]

    /// Reports what `cache` did: hits, misses and evictions since start, and what it holds now.
    public func registerSectionCache(_ cache: SectionCache) {
        registry.gauge("sectional_section_cache_hits_total", "Sections served as kept, without loading.") {
            [([], Double(cache.statistics.hits))]
        }
        registry.gauge("sectional_section_cache_misses_total", "Sections with a cache key not found kept: not yet, or their data changed.") {
            [([], Double(cache.statistics.misses))]
        }
        registry.gauge("sectional_section_cache_stores_total", "Sections rendered and kept.") { [([], Double(cache.statistics.stores))] }
        registry.gauge("sectional_section_cache_evictions_total", "Kept sections dropped to make room.") {
            [([], Double(cache.statistics.evictions))]
        }
        registry.gauge("sectional_section_cache_bytes", "What the kept sections hold, in bytes.") { [([], Double(cache.statistics.bytes))] }
    }

    /// Reports `read()` as the requests in flight.
    public func trackRequestsInFlight(_ read: @escaping @Sendable () -> Int) {
        registry.gauge("sectional_http_requests_in_flight", "Requests begun and not yet complete.") { [([], Double(read()))] }
    }
}

/// The process's resident memory, CPU time and open files, from `/proc/self`, read when scraped.
enum ProcessMetrics {
    static func register(in registry: MetricsRegistry) {
        registry.gauge("process_resident_memory_bytes", "Resident memory size in bytes.") {
            guard let pages = read("/proc/self/statm")?.split(separator: " ").dropFirst().first.flatMap({ Double($0) }) else { return [] }
            return [([], pages * Double(sysconf(Int32(_SC_PAGESIZE))))]
        }
        registry.gauge("process_cpu_seconds_total", "User and system CPU time spent, in seconds.") {
            // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
            guard let stat = read("/proc/self/stat"), let close = stat.lastIndex(of: ")") else { return [] }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return [] }
            return [([], (user + system) / Double(sysconf(Int32(_SC_CLK_TCK))))]
        }
        registry.gauge("process_open_fds", "Open file descriptors.") {
            guard let directory = opendir("/proc/self/fd") else { return [] }
            defer { closedir(directory) }
            var count = -3  // ".", "..", and the descriptor of this listing itself
            while readdir(directory) != nil { count += 1 }
            return [([], Double(max(0, count)))]
        }
    }

    private static func read(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = fread(&buffer, 1, buffer.count, file)
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
