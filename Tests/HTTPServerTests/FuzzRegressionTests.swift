import Foundation
import HTTPServer
import Testing

/// Inputs that `make fuzz` found failing, kept as tests so they stay fixed.
@Suite struct FuzzRegressionTests {
    /// Found by Fuzz/StaticPath: the served directory's name holds `é`
    /// (precomposed) and a link inside leads to a sibling spelled `e` + U+0301.
    /// The two names are canonically equivalent, so `String.hasPrefix` took
    /// the sibling for the served directory and served a file outside it.
    @Test func aLinkToACanonicallyEquivalentTwinDirectoryIsNotServed() throws {
        let base = FileManager.default.temporaryDirectory.path + "/sectional-twin-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: base) }
        let served = base + "/caf\u{e9}/public", twin = base + "/cafe\u{301}/public"
        for directory in [served, twin] {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        try Data("css".utf8).write(to: URL(fileURLWithPath: served + "/styles.css"))
        try Data("twin secret".utf8).write(to: URL(fileURLWithPath: twin + "/secret.txt"))
        try FileManager.default.createSymbolicLink(atPath: served + "/twin", withDestinationPath: twin + "/secret.txt")

        let files = try StaticFiles(directory: served)
        #expect(files.response(for: Request(method: .get, path: "/styles.css"))?.status == .ok)
        #expect(files.response(for: Request(method: .get, path: "/twin")) == nil)
    }
}
