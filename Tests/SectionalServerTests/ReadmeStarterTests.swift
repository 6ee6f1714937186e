import Foundation
import Testing

@Suite("The README's example app")
struct ReadmeStarterTests {
    /// The repository's root, from this file's place in it.
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("The README's page and section are the starter's files, word for word (the starter's tests show they work)")
    func readmeShowsTheStarter() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let sources = Self.root.appendingPathComponent("Examples/Starter/Sources/Savings")
        let files = try ["GoalsPage.swift", "GoalsSection.swift"].map {
            Self.code(try String(contentsOf: sources.appendingPathComponent($0), encoding: .utf8))
        }
        let blocks = readme.components(separatedBy: "```swift\n").dropFirst().map { $0.components(separatedBy: "```")[0] }
        let examples = blocks.filter { $0.contains("struct GoalsPage") || $0.contains("class GoalsSection") }
        #expect(examples.count == 2)
        for block in examples {
            #expect(files.contains { $0.contains(Self.code(block)) }, "the README's block is not the starter's code: \(block.prefix(80))")
        }
    }

    /// Code without its layout: the formatter may wrap what the README keeps on one line.
    private static func code(_ text: String) -> String { String(text.filter { !$0.isWhitespace }) }
}
