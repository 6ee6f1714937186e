/// How each load of a tree went, in tree order within each round (children
/// made by a load are loaded, and listed, in a later round): for logs, timing
/// headers and the JSON description.
public struct LoadReport: Sendable {
    /// How one section's load went.
    public struct Outcome: Sendable {
        /// How a load ended.
        public enum Status: Sendable, Equatable {
            /// The load delivered its model in time.
            case ok
            /// The load threw; the error as text.
            case failed(String)
            /// The load missed its deadline and was cancelled.
            case timedOut

            /// `ok`, `failed` or `timed-out`, as the JSON description says it.
            public var name: String {
                switch self {
                case .ok: "ok"
                case .failed: "failed"
                case .timedOut: "timed-out"
                }
            }
        }

        /// The section whose load it was.
        public var id: SectionID
        /// How the load ended.
        public var status: Status
        /// How long the load ran, on the load clock; for a load cut short, its deadline.
        public var duration: Duration
    }

    /// One outcome per load that ran.
    public var outcomes: [Outcome] = []

    /// Ids of the sections whose load failed or timed out.
    public var failedIDs: [SectionID] {
        outcomes.compactMap { $0.status == .ok ? nil : $0.id }
    }

    /// The outcome of the section with this id.
    public func outcome(of id: SectionID) -> Outcome? {
        outcomes.first { $0.id == id }
    }
}
