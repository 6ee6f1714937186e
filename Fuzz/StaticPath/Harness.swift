import Foundation

// Fuzzes static path resolution: whatever decoded path comes in, what
// `StaticFiles` serves is a regular file inside the served directory, never
// a file outside it, however reached (`..`, symlinks, encodings, NUL).
@testable import HTTPServer

/// A served directory laid out to tempt: files, a subdirectory, a link to a
/// file inside, links leading out, and secrets beside it. The served
/// directory's name holds a precomposed `é`; a sibling spelled with `e` and a
/// combining accent, canonically equivalent but another directory, holds a
/// second secret that a link inside points to.
let site: (root: String, secrets: [String]) = {
    let base = NSTemporaryDirectory() + "sectional-fuzz-static-\(getpid())"
    let root = base + "/caf\u{e9}/public", twin = base + "/cafe\u{301}/public"
    let files = FileManager.default
    do {
        try? files.removeItem(atPath: base)
        try files.createDirectory(atPath: root + "/sub/deeper", withIntermediateDirectories: true)
        try files.createDirectory(atPath: twin, withIntermediateDirectories: true)
        for (path, text) in [
            (base + "/caf\u{e9}/secret.txt", "secret"), (twin + "/secret.txt", "twin secret"),
            (root + "/styles.css", "css"), (root + "/app.js", "js"),
            (root + "/sub/page.html", "page"), (root + "/sub/deeper/a b.txt", "space"),
            (root + "/%2e%2e", "literal"), (root + "/caf\u{e9}.txt", "accent"),
        ] {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        try files.createSymbolicLink(atPath: root + "/alias.css", withDestinationPath: "styles.css")
        try files.createSymbolicLink(atPath: root + "/leak.txt", withDestinationPath: "../secret.txt")
        try files.createSymbolicLink(atPath: root + "/outside", withDestinationPath: "..")
        try files.createSymbolicLink(atPath: root + "/sub/up", withDestinationPath: "../..")
        try files.createSymbolicLink(atPath: root + "/absolute", withDestinationPath: base + "/caf\u{e9}/secret.txt")
        try files.createSymbolicLink(atPath: root + "/twin", withDestinationPath: twin + "/secret.txt")
    } catch {
        fatalError("cannot lay out the fuzzing site: \(error)")
    }
    atexit { try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "sectional-fuzz-static-\(getpid())") }
    return (root, [base + "/caf\u{e9}/secret.txt", twin + "/secret.txt"])
}()
let served: StaticFiles = {
    do { return try StaticFiles(directory: site.root) } catch { fatalError("\(error)") }
}()
let project: StaticFiles = {
    do { return try StaticFiles(directory: environment("SECTIONAL_PUBLIC", "Public")) } catch { fatalError("\(error)") }
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStaticPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let raw = String(decoding: input, as: UTF8.self)
    // Both what a handler sees (already decoded by the request parser) and the raw text.
    var paths = [raw, "/" + raw]
    if let request = try? Request(method: .get, target: raw) { paths.append(request.path) }
    for path in paths {
        for files in [served, project] {
            guard let file = files.resolve(path) else { continue }
            check(file, in: files.root, path: path, input: input)
            if files.response(for: Request(method: .get, path: path)) == nil { fuzzFailure("resolved but not served: \(path)", input: input) }
        }
    }
    return 0
}

private func check(_ file: StaticFiles.ResolvedFile, in root: String, path: String, input: [UInt8]) {
    // Bytes, not `String.hasPrefix`: that compares canonically equivalent spellings as equal.
    let bytes = Array(file.path.utf8)
    guard bytes.starts(with: (root + "/").utf8), !file.path.utf8.split(separator: UInt8(ascii: "/")).contains([46, 46]) else {
        fuzzFailure("\(path) resolved outside \(root): \(file.path)", input: input)
    }
    if site.secrets.contains(where: { Array($0.utf8) == bytes }) { fuzzFailure("\(path) reached a secret: \(file.path)", input: input) }
    // Its real path is itself (no link left to follow), and it is a regular file.
    guard let real = realpath(file.path, nil) else { fuzzFailure("\(file.path) does not exist", input: input) }
    defer { free(real) }
    if String(cString: real) != file.path { fuzzFailure("\(file.path) is not a real path", input: input) }
    var info = stat()
    if stat(file.path, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG { fuzzFailure("\(file.path) is not a regular file", input: input) }
    if UInt64(info.st_size) != file.size { fuzzFailure("size of \(file.path) misreported", input: input) }
}
