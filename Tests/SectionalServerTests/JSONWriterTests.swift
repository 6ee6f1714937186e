import Foundation
import HTTPServer
import Testing

@testable import Sectional
@testable import SectionalServer

/// The description written directly is byte for byte what `JSONEncoder` writes.
@Suite struct JSONWriterTests {
    static let titles = [
        "Plain", #"Quote " and back\slash"#, "Slash / stays", "Tab\tnew line\ncarriage\rreturn", "Control \u{1}\u{1F} and \u{7F}",
        "Accents é, emoji 🎉, backspace \u{8}, form feed \u{C}", "",
    ]

    func encoderJSON(_ description: PageDescription) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(description))
    }

    @Test(
        "Every section shown (positions past 9 too), none, some absent, with and without load statuses, a path to escape",
        arguments: [0, 1, 3, 12],
        [PageAddress(path: "/feed", context: [.init("date", "2026-11-03"), .init("q", "a b&c")]), PageAddress(path: #"/odd "path\"#)])
    func sameAsJSONEncoder(shown: Int, address: PageAddress) throws {
        let titles = Self.titles + (1...5).map { "Plain \($0)" }
        let entries = titles.enumerated().map { SectionCatalog.Entry(id: SectionID("s\($0.offset)"), title: $0.element) }
        let catalog = SectionCatalog(entries: entries, defaultIDs: entries.prefix(2).map(\.id))
        let ids = entries.prefix(shown).map(\.id.rawValue).joined(separator: ",")
        let plan = try CompositionPlan(catalog: catalog, query: [("sections", ids)])
        var report = LoadReport()
        report.outcomes = plan.sectionIDs.map { .init(id: $0, status: .failed("x"), duration: .zero) }
        for report in [nil, report] {
            let written = PageDescription.compactJSON(plan: plan, address: address, report: report).withBytes { Array($0) }
            let encoded = try encoderJSON(PageDescription(plan: plan, address: address, report: report))
            #expect(written == encoded, "\(String(decoding: written, as: UTF8.self))")
        }
    }

    @Test("A byte JSON escapes is found at every place of a text of every length up to 40; its neighbours are not")
    func escapableBytesFoundWordAtATime() {
        let escapable: [UInt8] = [0x00, 0x09, 0x1F, UInt8(ascii: "\""), UInt8(ascii: "\\")]
        let neighbours: [UInt8] = [0x20, 0x21, 0x23, 0x5B, 0x5D, 0x7F, 0x80, 0xC3, 0xFF]
        for length in 1...40 {
            for place in 0..<length {
                for byte in escapable + neighbours {
                    var text = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    text[place] = byte
                    let found = text.withUnsafeBufferPointer { JSONWriter.holdsEscapable($0) }
                    #expect(found == escapable.contains(byte), "byte \(byte) at \(place) of \(length)")
                }
            }
        }
    }
}
