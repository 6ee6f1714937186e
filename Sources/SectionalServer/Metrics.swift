import Synchronization

/// Counters, gauges and histograms, exposed in Prometheus' text format
/// (version 0.0.4): what `/metrics` on the metrics listener sends.
///
/// ```swift
/// let metrics = MetricsRegistry()
/// let requests = metrics.counter("app_requests_total", "Requests answered.", labels: ["route"])
/// requests.increment(["/feed"])
/// let text = metrics.exposition()
/// ```
public final class MetricsRegistry: Sendable {
    private let families = Mutex<[any MetricFamily]>([])

    /// An empty registry.
    public init() {}

    /// A counter family: only ever goes up.
    public func counter(_ name: String, _ help: String, labels: [String] = []) -> Counter {
        register(Counter(name: name, help: help, labels: labels))
    }

    /// A histogram family with cumulative `buckets` (upper bounds, in seconds for durations).
    public func histogram(
        _ name: String, _ help: String, labels: [String] = [], buckets: [Double] = Histogram.durationBuckets
    ) -> Histogram {
        register(Histogram(name: name, help: help, labels: labels, buckets: buckets))
    }

    /// A gauge read when scraped: `read` gives each label set's value.
    public func gauge(_ name: String, _ help: String, labels: [String] = [], read: @escaping @Sendable () -> [([String], Double)]) {
        _ = register(Gauge(name: name, help: help, labels: labels, read: read))
    }

    /// Every family, in registration order, as Prometheus text.
    public func exposition() -> String {
        let families = families.withLock { $0 }
        var text = ""
        for family in families { family.write(into: &text) }
        return text
    }

    private func register<Family: MetricFamily>(_ family: Family) -> Family {
        families.withLock { $0.append(family) }
        return family
    }
}

protocol MetricFamily: Sendable {
    func write(into text: inout String)
}

/// A family of counters, one per label set.
public final class Counter: MetricFamily {
    let name: String, help: String, labels: [String]
    private let values = Mutex<[[String]: Double]>([:])

    init(name: String, help: String, labels: [String]) {
        (self.name, self.help, self.labels) = (name, help, labels)
    }

    /// Adds `amount` to the counter of these label values (one per label name, in order).
    public func increment(_ labelValues: [String] = [], by amount: Double = 1) {
        values.withLock { $0[labelValues, default: 0] += amount }
    }

    func write(into text: inout String) {
        header(&text, name, help, "counter")
        for (labelValues, value) in values.withLock({ $0 }).sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            text += name + labelSet(labels, labelValues) + " " + number(value) + "\n"
        }
    }
}

/// A family of histograms, one per label set.
public final class Histogram: MetricFamily {
    /// From 1 ms to 10 s: page and load durations.
    public static let durationBuckets: [Double] = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

    let name: String, help: String, labels: [String], buckets: [Double]
    private struct Series {
        var counts: [UInt64]
        var sum = 0.0
        var count: UInt64 = 0

        mutating func record(_ value: Double, in bucket: Int) {
            counts[bucket] += 1
            sum += value
            count += 1
        }
    }
    private let series = Mutex<[[String]: Series]>([:])

    init(name: String, help: String, labels: [String], buckets: [Double]) {
        (self.name, self.help, self.labels, self.buckets) = (name, help, labels, buckets.sorted())
    }

    /// Records one observation for these label values.
    public func observe(_ value: Double, _ labelValues: [String] = []) {
        let bucket = buckets.firstIndex { value <= $0 } ?? buckets.count
        let bucketCount = buckets.count + 1
        series.withLock { all in
            // Changed in place: a copy taken out and stored back copied its counts (an allocation an observation).
            all[labelValues, default: Series(counts: Array(repeating: 0, count: bucketCount))].record(value, in: bucket)
        }
    }

    /// Records a duration, in seconds.
    public func observe(_ duration: Duration, _ labelValues: [String] = []) {
        let (seconds, attoseconds) = duration.components
        observe(Double(seconds) + Double(attoseconds) / 1e18, labelValues)
    }

    func write(into text: inout String) {
        header(&text, name, help, "histogram")
        for (labelValues, entry) in series.withLock({ $0 }).sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            var cumulative: UInt64 = 0
            for (index, bound) in (buckets + [.infinity]).enumerated() {
                cumulative += entry.counts[index]
                let le = bound.isInfinite ? "+Inf" : number(bound)
                text += name + "_bucket" + labelSet(labels + ["le"], labelValues + [le]) + " " + String(cumulative) + "\n"
            }
            text += name + "_sum" + labelSet(labels, labelValues) + " " + number(entry.sum) + "\n"
            text += name + "_count" + labelSet(labels, labelValues) + " " + String(entry.count) + "\n"
        }
    }
}

/// A gauge family read at scrape time.
final class Gauge: MetricFamily {
    let name: String, help: String, labels: [String]
    let read: @Sendable () -> [([String], Double)]

    init(name: String, help: String, labels: [String], read: @escaping @Sendable () -> [([String], Double)]) {
        (self.name, self.help, self.labels, self.read) = (name, help, labels, read)
    }

    func write(into text: inout String) {
        header(&text, name, help, name.hasSuffix("_total") ? "counter" : "gauge")
        for (labelValues, value) in read() { text += name + labelSet(labels, labelValues) + " " + number(value) + "\n" }
    }
}

private func header(_ text: inout String, _ name: String, _ help: String, _ type: String) {
    text += "# HELP " + name + " " + help.replacingBackslashesAndNewlines() + "\n# TYPE " + name + " " + type + "\n"
}

private func labelSet(_ names: [String], _ values: [String]) -> String {
    guard !names.isEmpty else { return "" }
    return "{" + zip(names, values).map { $0 + "=\"" + $1.escapedLabelValue() + "\"" }.joined(separator: ",") + "}"
}

private func number(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(value)
}

extension String {
    /// `\` `"` and newlines escaped, as the text format wants label values.
    fileprivate func escapedLabelValue() -> String {
        var out = ""
        for character in self {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }

    fileprivate func replacingBackslashesAndNewlines() -> String {
        var out = ""
        for character in self {
            switch character {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.append(character)
            }
        }
        return out
    }
}
