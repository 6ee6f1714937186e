/// How each load of a tree went, in tree order: for logs, timing headers and
/// the JSON description.
public struct LoadReport: Sendable {
    public struct Outcome: Sendable {
        public enum Status: Sendable, Equatable {
            case ok
            case failed(String)
        }

        public var id: String
        public var status: Status
        public var duration: Duration
    }

    public var outcomes: [Outcome] = []

    /// Ids of the sections whose load failed.
    public var failedIDs: [String] {
        outcomes.compactMap { $0.status == .ok ? nil : $0.id }
    }
}
