#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

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

    /// The parameters' values when `path` matches, else `nil`. Compared
    /// as bytes, segment by segment: no string is made but the values.
    func match(_ path: String) -> [String: String]? {
        var path = path
        return path.withUTF8 { bytes -> [String: String]? in
            var parameters: [String: String] = [:]
            var start = 0
            for segment in segments {
                guard start < bytes.count, bytes[start] == UInt8(ascii: "/") else { return nil }
                start += 1
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "/") { end += 1 }
                let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
                switch segment {
                case .literal(let literal) where Self.equal(literal, part): break
                case .parameter(let name) where !part.isEmpty: parameters[name] = String(decoding: part, as: UTF8.self)
                default: return nil
                }
                start = end
            }
            return start == bytes.count ? parameters : nil
        }
    }

    private static func equal(_ literal: String, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        literal.utf8.withContiguousStorageIfAvailable { literal in
            literal.count == bytes.count && (bytes.isEmpty || memcmp(literal.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        } ?? literal.utf8.elementsEqual(bytes)
    }
}
