import HTTPServer
import Testing

@Suite("Entity tags of content")
struct EntityTagTests {
    private func tag(_ text: String) -> String { Array(text.utf8).withUnsafeBufferPointer(EntityTag.of) }

    @Test("The same content has the same tag; any change, even of one byte at either end, another")
    func content() {
        let page = String(repeating: "<li>Everyday Checking $23,845.12</li>", count: 40)
        #expect(tag(page) == tag(String(page)))
        #expect(tag(page).wholeMatch(of: /"[0-9a-f]{32}"/) != nil)
        var seen: Set<String> = [tag(page), tag(""), tag("a")]
        for changed in ["x" + page.dropFirst(), page.dropLast() + "x", page + " ", String(page.dropLast())] {
            #expect(seen.insert(tag(changed)).inserted, "a tag seen before")
        }
        #expect(seen.count == 7)
    }

    @Test("A change of any one byte, at any place of a page, changes its tag")
    func everyPlace() {
        let page = Array(String(repeating: "<li>Everyday Checking $23,845.12</li>", count: 5).utf8)
        let original = page.withUnsafeBufferPointer(EntityTag.of)
        for place in page.indices {
            var changed = page
            changed[place] ^= 0x01
            #expect(changed.withUnsafeBufferPointer(EntityTag.of) != original, "byte \(place) of \(page.count)")
        }
    }

    @Test("If-None-Match names a tag among several, weakly or strongly, or is *")
    func matching() {
        #expect(EntityTag.matches(#""a", W/"b""#, #""b""#))
        #expect(EntityTag.matches("*", #""b""#))
        #expect(!EntityTag.matches(#""a""#, #""b""#))
        #expect(!EntityTag.matches("", #""b""#))
        #expect(EntityTag.matches(#""b""#, #""b""#), "the one tag a browser sends back")
        #expect(EntityTag.matches(" \t\"a\" ,,\tW/\"b\"  ", #""b""#), "spaces and tabs around each, empty items skipped")
        #expect(EntityTag.matches("\"a\", * ", #""b""#))
        #expect(!EntityTag.matches(#""bc", "b, "b""x"#, #""b""#), "only a whole item names a tag")
        #expect(!EntityTag.matches("W/", #""b""#) && !EntityTag.matches(",", #""b""#) && !EntityTag.matches("**", #""b""#))
    }
}
