import Foundation
import HTTPServer
import Testing

@testable import SectionalServer

/// `Response.json` writes what `JSONEncoder` would, byte for byte, without Foundation.
@Suite struct JSONEncodingTests {
    struct Leaf: Encodable {
        var name: String
        var count: Int
        var ratio: Double
        var ok: Bool
        var missing: String?
        var small: [Int8]
        var big: UInt64
        var single: Float
    }

    struct Tree: Encodable {
        var zeta = #"Quote " back\slash / tab\t new line\n \u{1} é 🎉"#
        var alpha = Leaf(name: "a", count: -3, ratio: 1.5, ok: true, missing: nil, small: [-128, 127], big: .max, single: 0.1)
        var leaves = [Leaf(name: "", count: 0, ratio: 3, ok: false, missing: "x", small: [], big: 0, single: -2)]
        var empty: [Int] = []
        var emptyObject: [String: Int] = [:]
        // Keys sort by their bytes: "B" before "a", "a10" before "a9".
        var keys = ["y": 1, "a9": 2, "a10": 3, "B": 4]
        var nested = [[1, 2], [], [3]]
        var numbers = [0, 1e20, 1e-7, -0.0, 123456789.123, 0.1]
        var null: Int? = nil
    }

    /// Encodes with a keyed container twice over, a nested and a super encoder, as hand-written conformances do.
    struct Handwritten: Encodable {
        enum Key: String, CodingKey { case status, inner, list, base }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            try container.encode(404, forKey: .status)
            var inner = container.nestedContainer(keyedBy: Key.self, forKey: .inner)
            try inner.encodeNil(forKey: .status)
            var list = container.nestedUnkeyedContainer(forKey: .list)
            try list.encode("first")
            var row = list.nestedUnkeyedContainer()
            try row.encode(true)
            try list.encode(["k": "v"])
            try "base".encode(to: container.superEncoder(forKey: .base))
            // A second keyed container on the same encoder adds to the same object.
            var more = encoder.container(keyedBy: Key.self)
            try more.encode("more", forKey: .base)
        }
    }

    func foundation(_ value: some Encodable, pretty: Bool) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    func ours(_ value: some Encodable, pretty: Bool) throws -> String {
        String(decoding: try JSONEncoding.encode(value, pretty: pretty), as: UTF8.self)
    }

    @Test("Nested objects and arrays, empty ones, escapes, optionals and every kind of number", arguments: [false, true])
    func sameAsJSONEncoder(pretty: Bool) throws {
        #expect(try ours(Tree(), pretty: pretty) == foundation(Tree(), pretty: pretty))
        #expect(try ours([Tree()], pretty: pretty) == foundation([Tree()], pretty: pretty))
        #expect(try ours(Handwritten(), pretty: pretty) == foundation(Handwritten(), pretty: pretty))
        #expect(try ours("top level", pretty: pretty) == foundation("top level", pretty: pretty))
    }

    @Test("A number JSON cannot hold is refused, as JSONEncoder refuses it; the answer is then {}")
    func refusesNaN() throws {
        #expect(throws: EncodingError.self) { try JSONEncoding.encode(["ratio": Double.nan], pretty: false) }
        #expect(throws: EncodingError.self) { try JSONEncoding.encode([Float.infinity], pretty: true) }
        #expect(Response.json(["ratio": Double.nan]).bodyBytes == Array("{}".utf8))
    }
}
