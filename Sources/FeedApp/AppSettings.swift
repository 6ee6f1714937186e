import Sectional
import SectionalAccounts
import SectionalServer
import Synchronization

/// How the app's pages load and send their sections: its knobs, set by flags.
public struct AppSettings: Sendable, Equatable {
    /// A section's load deadline unless the section sets its own.
    public var sectionTimeout: Duration
    /// Whether pages stream by default (`?stream=0` turns it off per request).
    public var streaming: Bool
    /// Faults injected into section loads, by section id.
    public var simulatedFaults: [String: SimulatedFault]
    /// Sessions and sign-in limits.
    public var accounts: AccountSettings
    /// Development or production: in development a failed section's card and
    /// a 500's page say what went wrong.
    public var environment: AppEnvironment
    /// The most the section cache may hold, in bytes; 0 turns it off. A
    /// section with a simulated fault is never kept: it must show the fault.
    public var sectionCacheBytes: Int
    /// Form posts a client may send a minute (`RateLimit`); 0, unless set,
    /// sets no limit. feed-server sets 60 (`--post-limit`); tests that post
    /// a lot from one client set none.
    public var postsPerMinute: Int

    /// The section cache's size unless told otherwise: a rendered card is a
    /// kilobyte or two, so thousands of users' cards.
    public static let defaultSectionCacheBytes = 32 << 20

    public init(
        sectionTimeout: Duration = .seconds(1), streaming: Bool = true, simulatedFaults: [String: SimulatedFault] = [:],
        accounts: AccountSettings = AccountSettings(), environment: AppEnvironment = .production,
        sectionCacheBytes: Int = defaultSectionCacheBytes, postsPerMinute: Int = 0
    ) {
        self.sectionTimeout = sectionTimeout
        self.streaming = streaming
        self.simulatedFaults = simulatedFaults
        self.accounts = accounts
        self.environment = environment
        self.sectionCacheBytes = sectionCacheBytes
        self.postsPerMinute = postsPerMinute
    }

    /// The section cache these settings ask for; `nil` when it is off.
    func makeSectionCache() -> SectionCache? {
        sectionCacheBytes > 0 ? SectionCache(capacity: sectionCacheBytes) : nil
    }

    /// The framework's settings, with the simulated faults applied to the loads of the sections they name,
    /// which are never served as kept.
    func pageSettings(clock: any Clock<Duration>) -> PageSettings {
        var settings = PageSettings(
            sectionTimeout: sectionTimeout, streaming: streaming, intercept: interceptor, clock: clock,
            diagnosesFailures: environment == .development)
        settings.uncachedSections = Set(simulatedFaults.keys.map { SectionID($0) })
        return settings
    }

    private var interceptor: LoadInterceptor? {
        guard !simulatedFaults.isEmpty else { return nil }
        let faults = simulatedFaults
        // What is left of each fault that passes (`failsFirst`), counted down load by load.
        let failuresLeft = Mutex(faults.compactMapValues { fault -> Int? in if case .failsFirst(let count) = fault { count } else { nil } })
        return { id, operation in
            guard let fault = faults[id.rawValue] else { return operation }
            if case .failsFirst = fault {
                let fails = failuresLeft.withLock { left in
                    guard let count = left[id.rawValue], count > 0 else { return false }
                    left[id.rawValue] = count - 1
                    return true
                }
                guard fails else { return operation }
            }
            return { try await fault.apply(to: operation) }
        }
    }
}

/// Where the app runs: a developer's machine, or production (the default).
public enum AppEnvironment: String, Sendable, Equatable {
    /// Errors shown where they happen: in the section's card, on the 500 page.
    case development
    /// Errors in the log only; a visitor reads a short notice.
    case production
}
