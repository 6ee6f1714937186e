/// A composition query named sections the page does not have.
public struct CompositionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The ids the query named that the catalog lacks, each once, in query order.
    public var unknownIDs: [SectionID]
    /// Every id the catalog has, in catalog order: what the page offers instead.
    public var validIDs: [SectionID]

    public var description: String {
        let names = unknownIDs.map { "'\($0)'" }.joined(separator: ", ")
        let noun = unknownIDs.count == 1 ? "section" : "sections"
        return "Unknown \(noun) \(names). Valid sections: \(validIDs.map(\.rawValue).joined(separator: ", "))."
    }
}
