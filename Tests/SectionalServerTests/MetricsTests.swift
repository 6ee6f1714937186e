import SectionalServer
import Synchronization
import Testing

@Suite("Metrics in Prometheus' text format")
struct MetricsTests {
    @Test("Counters by label set, sorted, with HELP and TYPE; label values escaped")
    func counters() {
        let registry = MetricsRegistry()
        let requests = registry.counter("app_requests_total", "Requests.", labels: ["route"])
        requests.increment(["/b"])
        requests.increment(["/a"], by: 2)
        requests.increment(["quote\"back\\slash\nline"])
        #expect(
            registry.exposition() == """
                # HELP app_requests_total Requests.
                # TYPE app_requests_total counter
                app_requests_total{route="/a"} 2
                app_requests_total{route="/b"} 1
                app_requests_total{route="quote\\"back\\\\slash\\nline"} 1

                """)
    }

    @Test("Histograms count into cumulative buckets, with +Inf, sum and count")
    func histograms() {
        let registry = MetricsRegistry()
        let durations = registry.histogram("app_seconds", "Durations.", buckets: [0.1, 1])
        for value in [0.05, 0.1, 0.5, 3] { durations.observe(value) }
        #expect(
            registry.exposition() == """
                # HELP app_seconds Durations.
                # TYPE app_seconds histogram
                app_seconds_bucket{le="0.1"} 2
                app_seconds_bucket{le="1"} 3
                app_seconds_bucket{le="+Inf"} 4
                app_seconds_sum 3.65
                app_seconds_count 4

                """)
    }

    @Test("Gauges are read when scraped")
    func gauges() {
        let registry = MetricsRegistry()
        let reading = Reading()
        registry.gauge("app_in_flight", "Now.") { [([], Double(reading.next()))] }
        #expect(registry.exposition().hasSuffix("app_in_flight 1\n"))
        #expect(registry.exposition().hasSuffix("app_in_flight 2\n"))
    }
}

private final class Reading: Sendable {
    private let count = Mutex(0)
    func next() -> Int {
        count.withLock {
            $0 += 1; return $0
        }
    }
}
