import Sectional

/// How pages load and send their sections.
public struct PageSettings: Sendable {
    /// A section's load deadline unless the section sets its own.
    public var sectionTimeout: Duration
    /// Whether pages stream by default (`?stream=0` turns it off per request).
    public var streaming: Bool
    /// Wraps each section's load, by section id: fault injection, tracing.
    public var intercept: LoadInterceptor?
    /// The clock deadlines are measured on; tests pass one they advance by hand.
    public var clock: any Clock<Duration>
    /// Told how each page's loads went (metrics): the page's name and the report.
    public var onLoadReport: (@Sendable (_ page: String, _ report: LoadReport) -> Void)?

    /// By default: a 1 s deadline, streamed pages, no wrapper, and the real clock.
    public init(
        sectionTimeout: Duration = .seconds(1), streaming: Bool = true, intercept: LoadInterceptor? = nil,
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.sectionTimeout = sectionTimeout
        self.streaming = streaming
        self.intercept = intercept
        self.clock = clock
    }

    var loadOptions: LoadOptions {
        LoadOptions(timeout: sectionTimeout, clock: clock, intercept: intercept)
    }
}
