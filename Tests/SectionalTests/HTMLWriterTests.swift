import Testing

@testable import Sectional

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The byte buffer pages render into: it grows as needed and keeps every
/// byte in order, whatever its starting capacity.
@Suite("HTMLWriter")
struct HTMLWriterTests {
    @Test(arguments: [0, 1, 64, 100, 4096])
    func growingKeepsEveryByteInOrder(_ capacity: Int) {
        var writer = HTMLWriter(capacity: capacity)
        var expected = ""
        for index in 0..<500 {
            let piece = String(repeating: "x", count: index % 37) + "é\(index)"
            if index.isMultiple(of: 2) {
                writer.writeRaw(piece)
                expected += piece
            } else {
                writer.writeEscaped(piece + "<&>")
                expected += piece + "&lt;&amp;&gt;"
            }
        }
        writer.writeRaw("" as StaticString)
        writer.writeEscaped("")
        #expect(writer.count == expected.utf8.count)
        #expect(writer.bytes == Array(expected.utf8))
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == expected)
    }

    @Test func piecesOfEveryLengthArriveWhole() {
        // Short pieces are copied as overlapping words, the end of a text tested as one word:
        // every length up to past the widest word, at every offset in the buffer.
        let digits = Array("0123456789abcdefghijklmnopqrstuvwxyz0123".utf8)
        for length in 0...digits.count {
            var writer = HTMLWriter(capacity: 64)
            var expected: [UInt8] = []
            for offset in 0..<9 {
                let piece = Array(digits[offset..<min(digits.count, offset + length)])
                piece.withUnsafeBufferPointer { writer.writeRaw($0) }
                writer.writeEscaped(String(decoding: piece, as: UTF8.self))
                expected += piece + piece
            }
            #expect(writer.bytes == expected, "length \(length)")
        }
    }

    @Test func anEscapableByteIsFoundInTextOfEveryLength() {
        for length in 1...24 {
            for position in 0..<length {
                var text = Array(repeating: UInt8(ascii: "a"), count: length)
                text[position] = UInt8(ascii: "<")
                var writer = HTMLWriter()
                writer.writeEscaped(String(decoding: text, as: UTF8.self))
                let expected = String(repeating: "a", count: position) + "&lt;" + String(repeating: "a", count: length - position - 1)
                #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == expected, "length \(length), at \(position)")
            }
        }
    }

    @Test func oneWriteFarLargerThanTheCapacity() {
        var writer = HTMLWriter(capacity: 64)
        let large = String(repeating: "0123456789", count: 10_000)
        writer.writeRaw("[")
        writer.writeRaw(large)
        writer.writeRaw("]" as StaticString)
        #expect(writer.count == large.utf8.count + 2)
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == "[" + large + "]")
    }

    @Test func writingAnotherWriterAppendsItsBytes() {
        var inner = HTMLWriter(capacity: 1)
        inner.writeEscaped("<p>")
        var outer = HTMLWriter(capacity: 1)
        outer.writeRaw(String(repeating: "a", count: 63))
        outer.write(inner)
        outer.write(inner)
        #expect(outer.withBytes { String(decoding: $0, as: UTF8.self) } == String(repeating: "a", count: 63) + "&lt;p&gt;&lt;p&gt;")
        #expect(inner.count == 9, "the source writer is left as it was")
    }

    @Test func attributesKeepTheirNameAndValue() {
        #expect(HTMLAttribute.class("card").name == "class")
        #expect(HTMLAttribute.class("card").value == "card")
        #expect(HTMLAttribute.data("section", "alerts").name == "data-section")
        #expect(HTMLAttribute.aria("label", "x").name == "aria-label")
        #expect(HTMLAttribute.checked.name == "checked")
        #expect(HTMLAttribute.checked.value == nil)
        #expect(HTMLAttribute("data-x", "a=b").name == "data-x")
        #expect(HTMLAttribute("hidden", nil).value == nil)
        #expect(div(attributes: [HTMLAttribute("hidden", nil), .id("x")]) { "" }.render() == #"<div hidden id="x"></div>"#)
    }

    // From a small writer grown on the way, and from a large one whose spare room is given back.
    @Test(arguments: [(64, 0), (64, 10), (64, 5_000), (16_384, 0), (16_384, 10), (16_384, 5_000)])
    func aWriterHandsOverExactlyWhatItWroteWithoutACopy(capacity: Int, length: Int) {
        var writer = HTMLWriter(capacity: capacity)
        let text = String(repeating: "a<", count: length / 2)
        writer.writeEscaped(text)
        let written = writer.bytes
        let buffer = writer.takeBuffer()
        defer { free(buffer.baseAddress) }
        #expect(Array(buffer) == written)
        #expect(String(decoding: buffer, as: UTF8.self) == String(repeating: "a&lt;", count: length / 2))
    }
}
