/// How each load of a tree went, in tree order within each round (children
/// made by a load are loaded, and listed, in a later round): for logs, timing
/// headers and the JSON description.
public struct LoadReport: Sendable {
    public struct Outcome: Sendable {
        public enum Status: Sendable, Equatable {
            case ok
            case failed(String)
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

        public var id: SectionID
        public var status: Status
        public var duration: Duration
    }

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
