import Sectional
import SectionalServer

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

    public init(
        sectionTimeout: Duration = .seconds(1), streaming: Bool = true, simulatedFaults: [String: SimulatedFault] = [:],
        accounts: AccountSettings = AccountSettings()
    ) {
        self.sectionTimeout = sectionTimeout
        self.streaming = streaming
        self.simulatedFaults = simulatedFaults
        self.accounts = accounts
    }

    /// The framework's settings, with the simulated faults applied to the loads of the sections they name.
    func pageSettings(clock: any Clock<Duration>) -> PageSettings {
        PageSettings(sectionTimeout: sectionTimeout, streaming: streaming, intercept: interceptor, clock: clock)
    }

    private var interceptor: LoadInterceptor? {
        guard !simulatedFaults.isEmpty else { return nil }
        let faults = simulatedFaults
        return { id, operation in
            guard let fault = faults[id.rawValue] else { return operation }
            return { try await fault.apply(to: operation) }
        }
    }
}
