/// A route's path, e.g. `/feed/sections/{id}`, split into literal and
/// parameter segments.
struct RoutePattern: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
    }

    let segments: [Segment]

    init(_ pattern: String) {
        segments = pattern.split(separator: "/").map { part in
            part.hasPrefix("{") && part.hasSuffix("}")
                ? .parameter(String(part.dropFirst().dropLast()))
                : .literal(String(part))
        }
    }

    /// Whether `other` matches the same paths: the same literals, parameters where this has them.
    func hasShape(of other: RoutePattern) -> Bool {
        segments.count == other.segments.count
            && zip(segments, other.segments).allSatisfy { mine, theirs in
                switch (mine, theirs) {
                case (.literal(let a), .literal(let b)): a == b
                case (.parameter, .parameter): true
                default: false
                }
            }
    }

    var isLiteral: Bool {
        !segments.contains { if case .parameter = $0 { true } else { false } }
    }

    /// The parameters' values when `path` matches, else `nil`.
    func match(_ path: String) -> [String: String]? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard parts.count == segments.count else { return nil }
        var parameters: [String: String] = [:]
        for (segment, part) in zip(segments, parts) {
            switch segment {
            case .literal(let literal) where literal == part: continue
            case .parameter(let name) where !part.isEmpty: parameters[name] = String(part)
            default: return nil
            }
        }
        return parameters
    }
}
