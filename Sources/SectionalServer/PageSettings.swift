import Sectional
import SectionalSQL

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
    /// Whether a page sent whole carries `Server-Timing`: each section's
    /// load and render time, for the browser's developer tools. It tells
    /// every client how long each section took; a site that would rather
    /// not, or that answers without it, turns it off and pays no clock read
    /// per card.
    public var serverTiming: Bool
    /// Development only: a section that failed shows, below its fallback,
    /// its type, its load's time and the error. Never in production: the
    /// error may say what a visitor should not read.
    public var diagnosesFailures: Bool
    /// Sections never served from the site's section cache, whatever they
    /// declare: e.g. those whose loads `intercept` changes (a simulated
    /// fault must show on every load).
    public var uncachedSections: Set<SectionID> = []

    /// By default: a 1 s deadline, streamed pages, no wrapper, the real clock, `Server-Timing`, no diagnosis.
    public init(
        sectionTimeout: Duration = .seconds(1), streaming: Bool = true, intercept: LoadInterceptor? = nil,
        clock: any Clock<Duration> = DeadlineClock(), serverTiming: Bool = true, diagnosesFailures: Bool = false
    ) {
        self.sectionTimeout = sectionTimeout
        self.streaming = streaming
        self.intercept = intercept
        self.clock = clock
        self.serverTiming = serverTiming
        self.diagnosesFailures = diagnosesFailures
    }

    var loadOptions: LoadOptions {
        LoadOptions(
            timeout: sectionTimeout, clock: clock, intercept: intercept, diagnosesFailures: diagnosesFailures,
            startingTogether: { StatementBurst.together($0) }, stopsReadsHere: { ConnectionPool.stopperOfThisThread() })
    }
}
