/// A composition query named sections the page does not have.
public struct CompositionError: Error, Sendable, Equatable, CustomStringConvertible {
    public var unknownIDs: [SectionID]
    public var validIDs: [SectionID]

    public var description: String {
        let names = unknownIDs.map { "'\($0)'" }.joined(separator: ", ")
        let noun = unknownIDs.count == 1 ? "section" : "sections"
        return "Unknown \(noun) \(names). Valid sections: \(validIDs.map(\.rawValue).joined(separator: ", "))."
    }
}
