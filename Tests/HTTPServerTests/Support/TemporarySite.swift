import Foundation

/// A throwaway directory laid out like a site: `public/` holds the files a
/// server may serve, and beside it lies `secret.txt`, which a path traversal
/// would reach. Removed when released.
final class TemporarySite {
    /// The directory holding `public/` and `secret.txt`.
    let base: String
    /// The directory to serve.
    var publicDirectory: String { base + "/public" }

    static let secret = "TOP SECRET: outside the public directory"
    static let styles = "body { margin: 0 }\n"
    static let page = "<!doctype html><title>index</title>\n"

    init() throws {
        base = FileManager.default.temporaryDirectory.path + "/sectional-site-" + UUID().uuidString
        let files = FileManager.default
        try files.createDirectory(atPath: base + "/public/sub", withIntermediateDirectories: true)
        try write(Self.secret, to: "secret.txt")
        try write(Self.page, to: "public/index.html")
        try write(Self.styles, to: "public/styles.css")
        try write("console.log(1)\n", to: "public/app.js")
        try write("{}\n", to: "public/data.json")
        try write("notes\n", to: "public/notes.txt")
        try write("<svg/>", to: "public/logo.svg")
        try write("png", to: "public/LOGO.PNG")
        try write("ico", to: "public/favicon.ico")
        try write("font", to: "public/font.woff2")
        try write("bytes", to: "public/archive.bin")
        try write("no extension", to: "public/README")
        try write("<p>sub</p>\n", to: "public/sub/page.html")
        // Links inside the served directory: one to a file inside it, two leading out.
        try files.createSymbolicLink(atPath: base + "/public/alias.css", withDestinationPath: "styles.css")
        try files.createSymbolicLink(atPath: base + "/public/leak.txt", withDestinationPath: "../secret.txt")
        try files.createSymbolicLink(atPath: base + "/public/outside", withDestinationPath: "..")
    }

    /// Writes `text` to `path` relative to `base`.
    func write(_ text: String, to path: String) throws {
        try Data(text.utf8).write(to: URL(fileURLWithPath: base + "/" + path))
    }

    deinit { try? FileManager.default.removeItem(atPath: base) }
}
