import Testing

@testable import Sectional

/// The writer's short cuts — escaping eight bytes at a time, numbers and
/// attributes written without a string, collections rendered one element at
/// a time — give exactly the bytes of the plain way.
@Suite("Writing without strings")
struct FastWritingTests {
    /// Escaping as the definition says, one character at a time.
    private static func escapedSlowly(_ text: String) -> String {
        let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]
        return text.map { entities[$0] ?? String($0) }.joined()
    }

    @Test(arguments: ["&", "<", ">", "\"", "'"])
    func everyEscapedByteIsFoundAtEveryPlaceInAWord(_ special: String) {
        // Before, inside and after the eight-byte words the scan reads whole, and in twos.
        for before in 0..<20 {
            for after in [0, 1, 7, 8, 9] {
                for text in [
                    String(repeating: "a", count: before) + special + String(repeating: "é", count: after),
                    String(repeating: "b", count: before) + special + special + String(repeating: "c", count: after),
                    // `#` raises the word test too, and must not hide a real one after it.
                    String(repeating: "#", count: before) + special + String(repeating: "#", count: after),
                ] {
                    var writer = HTMLWriter()
                    writer.writeEscaped(text)
                    #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == Self.escapedSlowly(text), "\(text.debugDescription)")
                }
            }
        }
    }

    @Test func textWithoutSpecialBytesIsWrittenAsIs() {
        // Bytes just beside the five (0x21, 0x25, 0x28, 0x3B, 0x3D, 0x3F) must not be taken for them,
        // nor `#` (0x23), which the eight-byte test lets in: short and long text alike.
        let plain = String(repeating: "!%(;=?~ plain text, é and 0123456789 ", count: 40)
        for text in [plain, "#", "#tag", "a # b", "#section-balances", plain.replacingOccurrences("~", "#")] {
            var writer = HTMLWriter(capacity: 64)
            writer.writeEscaped(text)
            #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == text)
        }
    }

    @Test func longTextWithHashesStillFindsTheFiveAfterThem() {
        let text = String(repeating: "#", count: 100) + "<" + String(repeating: "#x", count: 50) + "&"
        var writer = HTMLWriter(capacity: 64)
        writer.writeEscaped(text)
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == Self.escapedSlowly(text))
    }

    @Test(arguments: [0, 7, -7, 9, 10, 42, 99, -99, 100, 101, 1_000_000, -1_234_567_890, Int.max, Int.min])
    func numbersAreWrittenAsTheirDecimalDigits(_ number: Int) {
        var writer = HTMLWriter()
        writer.writeDecimal(number)
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == String(number))
        #expect(p { number }.render() == "<p>\(number)</p>")
    }

    @Test(arguments: [
        (0 as UInt, "0"), (5, "5"), (10, "10"), (99, "99"), (100, "100"), (999, "999"), (1000, "1,000"), (12_500, "12,500"), (1_234_567, "1,234,567"),
        (UInt.max, "18,446,744,073,709,551,615"),
    ])
    func groupedNumbersHaveASeparatorEveryThreeDigits(_ number: UInt, _ expected: String) {
        var writer = HTMLWriter()
        writer.writeDecimal(number, groupingBy: ",")
        writer.writeRaw(" ")
        writer.writeDecimal(number, groupingBy: "\u{202F}")
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == expected + " " + expected.replacingOccurrences(",", "\u{202F}"))
    }

    /// The writer counts a number's digits before writing them: each length, at both its ends, comes out whole.
    @Test func numbersOfEveryLengthAreWrittenWhole() {
        var power: UInt = 1
        var expected = ""
        var writer = HTMLWriter(capacity: 64)
        for _ in 0..<20 {
            for number in [power - 1, power, power + 1] {
                writer.writeDecimal(number, groupingBy: "")
                writer.writeRaw(" ")
                expected += "\(number) "
            }
            guard power <= UInt.max / 10 else { break }
            power *= 10
        }
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == expected)
    }

    @Test func anAttributeIsWrittenWithItsValueEscaped() {
        var writer = HTMLWriter()
        writer.writeAttribute(" title=\"", #"Tom & "Jerry""#)
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == #" title="Tom &amp; &quot;Jerry&quot;""#)
    }

    @Test func bytesWrittenAreWrittenAgainAsTheyWereAlsoWhenTheBufferGrows() {
        var writer = HTMLWriter(capacity: 64)
        writer.writeRaw("<p id=\"")
        let start = writer.count
        writer.writeEscaped(#"a "quoted" & <odd> id"#)
        let id = start..<writer.count
        writer.writeRaw("\">")
        // Past the first capacity: the copies are read from the buffer as it is after it moved.
        for _ in 0..<8 { writer.writeAgain(id) }
        writer.writeAgain(id.lowerBound..<id.lowerBound)
        let escaped = "a &quot;quoted&quot; &amp; &lt;odd&gt; id"
        #expect(writer.withBytes { String(decoding: $0, as: UTF8.self) } == "<p id=\"\(escaped)\">" + String(repeating: escaped, count: 8))
    }

    @Test func forEachRendersEachElementInOrder() {
        let names = ["Ann", "<Bo>", "Cy"]
        let built = ul { ForEach(names) { name in li(.class("name")) { name } } }.render()
        let looped = ul {
            for name in names { li(.class("name")) { name } }
        }.render()
        #expect(built == #"<ul><li class="name">Ann</li><li class="name">&lt;Bo&gt;</li><li class="name">Cy</li></ul>"#)
        #expect(built == looped)
        #expect(ul { ForEach([String]()) { name in li { name } } }.render() == "<ul></ul>")
        #expect(ol { ForEach(1...3) { number in li { number } } }.render() == "<ol><li>1</li><li>2</li><li>3</li></ol>")
    }
}

extension String {
    fileprivate func replacingOccurrences(_ target: Character, _ replacement: String) -> String {
        map { $0 == target ? replacement : String($0) }.joined()
    }
}
