import Sectional

/// How pages load and send their sections: the app's knobs, set by flags.
public struct PageSettings: Sendable, Equatable {
    /// A section's load deadline unless the section sets its own.
    public var sectionTimeout: Duration
    /// Whether pages stream by default (`?stream=0` turns it off per request).
    public var streaming: Bool
    /// Faults injected into section loads, by section id.
    public var simulatedFaults: [String: SimulatedFault]

    public init(sectionTimeout: Duration = .seconds(1), streaming: Bool = true, simulatedFaults: [String: SimulatedFault] = [:]) {
        self.sectionTimeout = sectionTimeout
        self.streaming = streaming
        self.simulatedFaults = simulatedFaults
    }

    /// Applies the simulated faults to the loads of the sections they name.
    var interceptor: LoadInterceptor? {
        guard !simulatedFaults.isEmpty else { return nil }
        let faults = simulatedFaults
        return { id, operation in
            guard let fault = faults[id] else { return operation }
            return { try await fault.apply(to: operation) }
        }
    }
}
