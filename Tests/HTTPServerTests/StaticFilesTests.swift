import Foundation
import SectionalTesting
import Testing

@testable import HTTPServer

/// Static files in-process: content types, entity tags and 304, and the
/// guarantee that nothing outside the public directory is ever served.
@Suite struct StaticFilesTests {
    let site: TemporarySite
    let files: StaticFiles

    init() throws {
        site = try TemporarySite()
        var files = try StaticFiles(directory: site.publicDirectory)
        // Every request asks the disk, so that a test's edit shows at once (the interval has its own test).
        files.revalidationInterval = .zero
        self.files = files
    }

    func response(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) throws -> Response? {
        files.response(for: try Request(method: method, target: target, headers: headers))
    }

    @Test("A file's type is told by what follows the last dot of its name, never of a directory's")
    func extensionOfTheLastComponent() {
        for (path, expected) in [
            ("/srv/Public/styles.css", "css"), ("/a/archive.tar.gz", "gz"), ("/a.b/README", ""), ("/a/file.", ""), ("css", ""),
            ("/a/.hidden", "hidden"), ("/a/é.SVG", "SVG"),
        ] {
            #expect(MediaType.fileExtension(of: path) == expected, "\(path)")
        }
        #expect(MediaType.forFile(named: "/a.css/README") == "application/octet-stream")
    }

    @Test(arguments: [
        ("/index.html", "text/html; charset=utf-8"),
        ("/styles.css", "text/css; charset=utf-8"),
        ("/app.js", "text/javascript; charset=utf-8"),
        ("/data.json", "application/json"),
        ("/notes.txt", "text/plain; charset=utf-8"),
        ("/logo.svg", "image/svg+xml"),
        ("/LOGO.PNG", "image/png"),
        ("/favicon.ico", "image/x-icon"),
        ("/font.woff2", "font/woff2"),
        ("/archive.bin", "application/octet-stream"),
        ("/README", "application/octet-stream"),
        ("/sub/page.html", "text/html; charset=utf-8"),
    ])
    func servesFilesWithTheirContentType(target: String, contentType: String) throws {
        let response = try #require(try response(target))
        #expect(response.status == .ok)
        #expect(response.headers["Content-Type"] == contentType)
        #expect(response.headers["Cache-Control"] == "public, max-age=300")
        let onDisk = try Data(contentsOf: URL(fileURLWithPath: site.publicDirectory + target))
        switch response.body {
        case .bytes(let bytes):
            #expect(Data(bytes) == onDisk, "a small file is served from memory, exactly as on disk")
        case .file(let path, let size):
            #expect(size == UInt64(onDisk.count))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == onDisk)
        case .buffer, .stream:
            Issue.record("a file is read whole into an array, or sent from disk")
        }
    }

    @Test func aChangedFileIsServedAnewNotFromMemory() throws {
        let first = try #require(try response("/notes.txt"))
        try site.write("a longer, different text", to: "public/notes.txt")
        let second = try #require(try response("/notes.txt"))
        #expect(second.bodyText == "a longer, different text")
        #expect(second.headers["ETag"] != first.headers["ETag"])
    }

    @Test func symlinkToAFileInsideIsServedAsItsTarget() throws {
        let response = try #require(try response("/alias.css"))
        #expect(response.headers["Content-Type"] == "text/css; charset=utf-8")
        #expect(response.body.count == UInt64(TemporarySite.styles.utf8.count))
    }

    @Test func headIsAnsweredLikeGet() throws {
        let get = try #require(try response("/styles.css"))
        let head = try #require(try response("/styles.css", method: .head))
        #expect(head.status == get.status)
        #expect(head.headers.lines == get.headers.lines)
    }

    @Test(arguments: [
        ("{etag}", true),
        ("W/{etag}", true),
        ("*", true),
        ("\"other\", {etag}", true),
        ("\"a\",W/{etag},\"b\"", true),
        ("  {etag}  ", true),
        ("\"other\"", false),
        ("W/\"other\"", false),
        ("\"other\", W/\"another\"", false),
        ("", false),
        ("{bare}", false),
    ])
    func ifNoneMatchAnswers304OnlyForTheCurrentTag(header: String, notModified: Bool) throws {
        let first = try #require(try response("/styles.css"))
        let etag = try #require(first.headers["ETag"])
        #expect(etag.hasPrefix("\"") && etag.hasSuffix("\""))
        let value =
            header
            .replacingOccurrences(of: "{etag}", with: etag)
            .replacingOccurrences(of: "{bare}", with: String(etag.dropFirst().dropLast()))

        let second = try #require(try response("/styles.css", headers: ["If-None-Match": value]))
        if notModified {
            #expect(second.status == .notModified)
            #expect(second.body.count == 0)
            #expect(second.headers["ETag"] == etag)
        } else {
            #expect(second.status == .ok)
            #expect(second.body.count == UInt64(TemporarySite.styles.utf8.count))
        }
    }

    @Test func changedFileGetsANewTagAndTheOldOneNoLongerMatches() throws {
        let before = try #require(try response("/notes.txt")?.headers["ETag"])
        try site.write("notes, now longer than before\n", to: "public/notes.txt")
        let after = try #require(try response("/notes.txt"))
        #expect(after.headers["ETag"] != before)
        let revalidated = try #require(try response("/notes.txt", headers: ["If-None-Match": before]))
        #expect(revalidated.status == .ok)
    }

    /// Within the revalidation interval a file is answered from memory, without asking the disk;
    /// past it (here, an interval of zero over the same cache), the change shows.
    @Test func aChangeShowsOnceTheRevalidationIntervalHasPassed() throws {
        var files = files
        files.revalidationInterval = .seconds(3600)
        let request = try Request(method: .get, target: "/notes.txt")
        let before = try #require(files.response(for: request))
        try site.write("notes, now longer than before\n", to: "public/notes.txt")
        #expect(files.response(for: request)?.headers["ETag"] == before.headers["ETag"], "served from memory within the interval")
        #expect(files.response(for: request)?.bodyBytes == before.bodyBytes)
        files.revalidationInterval = .zero
        let after = try #require(files.response(for: request))
        #expect(after.headers["ETag"] != before.headers["ETag"])
        #expect(after.bodyBytes == Array("notes, now longer than before\n".utf8))
    }

    @Test(arguments: [
        "/../secret.txt",
        "/%2e%2e/secret.txt",
        "/%2E%2E/secret.txt",
        "/.%2e/secret.txt",
        "/sub/../../secret.txt",
        "/sub/%2e%2e/%2e%2e/secret.txt",
        "/sub/../index.html",
        "/./index.html",
        "/sub/./page.html",
        "/%2e/index.html",
        "/%2F..%2Fsecret.txt",
        "/sub%2F..%2F..%2Fsecret.txt",
        "/index.html%00.png",
        "/%00",
        "/..\\secret.txt",
        "/%5c..%5csecret.txt",
        "/sub\\page.html",
        "/leak.txt",
        "/outside/secret.txt",
        "/sub",
        "/sub/",
        "/",
        "//",
        "/missing.css",
    ])
    func nothingOutsideTheDirectoryNorADirectoryIsServed(target: String) throws {
        #expect(try response(target) == nil)
        #expect(try response(target, method: .head) == nil)
    }

    @Test func routerAnswersTraversalAndDirectoriesWith404() async throws {
        let router = Router(staticFiles: files, logger: LogCollector().logger)
        for target in ["/%2e%2e/secret.txt", "/leak.txt", "/sub", "/index.html%00"] {
            let response = await router.respond(to: try Request(method: .get, target: target))
            #expect(response.status == .notFound, "\(target)")
            #expect(!response.bodyText.contains("TOP SECRET"))
        }
        let served = await router.respond(to: try Request(method: .get, target: "/index.html"))
        #expect(served.status == .ok)
        let posted = await router.respond(to: try Request(method: .post, target: "/index.html"))
        #expect(posted.status == .methodNotAllowed)
        #expect(posted.headers["Allow"] == "GET, HEAD")
    }

    @Test func missingOrNonDirectoryRootIsAClearError() throws {
        #expect(throws: ServerError.publicDirectory(site.base + "/absent")) {
            try StaticFiles(directory: site.base + "/absent")
        }
        #expect(throws: ServerError.publicDirectory(site.base + "/secret.txt")) {
            try StaticFiles(directory: site.base + "/secret.txt")
        }
    }
}
