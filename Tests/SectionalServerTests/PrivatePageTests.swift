import Foundation
import HTTPServer
import Sectional
import SectionalServer
import SectionalTesting
import Testing

/// A sign-in as small as a test needs: `Authorization: Bearer NAME` for a
/// name it knows, each with a session of its own.
private struct NameSignIn: SignIn {
    static let names: Set<String> = ["alice", "bob"]

    func visitor(for request: Request, renewing: Bool) async throws(HTTPError) -> SignedIn<String>? {
        guard let name = request.headers["Authorization"]?.split(separator: " ").last.map(String.init) else { return nil }
        guard Self.names.contains(name) else { throw HTTPError(.unauthorized, "Unknown name.") }
        return SignedIn(user: name, name: name, session: "session-of-" + name)
    }

    func signInPath(returningTo request: Request) -> String { "/login?next=" + request.path }
}

/// `NameSignIn`, its visitors confirmed by their credential alone, as a
/// session's are by its cookie: a page made for one is kept, and confirmed with a `304`.
private struct KeptNameSignIn: SignIn {
    func visitor(for request: Request, renewing: Bool) async throws(HTTPError) -> SignedIn<String>? {
        var visitor = try await NameSignIn().visitor(for: request, renewing: renewing)
        visitor?.readAt = ReadStamp()
        return visitor
    }

    func credential(in request: Request) -> String? { request.headers["Authorization"] ?? "" }

    func signInPath(returningTo request: Request) -> String { NameSignIn().signInPath(returningTo: request) }
}

/// `KeptNameSignIn`, but a name it does not know is nobody, not refused:
/// as a session cookie nobody holds (made up, or ended) is.
private struct LenientSignIn: SignIn {
    func visitor(for request: Request, renewing: Bool) async throws(HTTPError) -> SignedIn<String>? {
        guard let name = request.headers["Authorization"]?.split(separator: " ").last.map(String.init), NameSignIn.names.contains(name)
        else { return nil }
        return SignedIn(user: name, name: name, session: "session-of-" + name, readAt: ReadStamp())
    }

    func credential(in request: Request) -> String? { request.headers["Authorization"] ?? "" }

    func signInPath(returningTo request: Request) -> String { NameSignIn().signInPath(returningTo: request) }
}

/// A page anyone may see, with a card everyone shares.
private struct HallPage: ComposedPage {
    let name = "hall"
    let title = "Hall"
    let isPublic = true
    let catalog = PageCatalog<Void>([.section(WatchedSection.self) { _ in WatchedSection() }], defaults: [WatchedSection.self])
}

/// A page that says nothing about who may see it, and reads nobody.
private struct PlainPage: ComposedPage {
    let name = "plain"
    let title = "Plain"
    let catalog = PageCatalog<Void>([.section(WatchedSection.self) { _ in WatchedSection() }], defaults: [WatchedSection.self])
}

/// A section shown live: it watches the key `watched`; its card is the same for everyone.
private final class WatchedSection: SectionController, CatalogSection {
    static let id: SectionID = "watched"
    static let title = "Watched"
    init() { super.init(id: Self.id, title: Self.title) }
    override var liveKeys: Set<LiveKey> { ["watched"] }
    override var cacheKey: String? { "" }
    override func render(into html: inout HTMLWriter) { p { "Watched" }.render(into: &html) }
}

/// A page whose sections show the visitor's own data.
private struct DiaryPage: ComposedPage {
    let name = "diary"
    let title = "Diary"
    let catalog = PageCatalog<String>(
        [.section(TextSection.self) { setup in TextSection("The diary of " + setup.context) }], defaults: [TextSection.self])

    func context(from request: Request, visitor: SignedIn<String>?) throws(HTTPError) -> String {
        guard let visitor else { throw .signInRequired }
        return visitor.user
    }
}

/// A section that shows a line of text its page's context gave it.
private final class TextSection: SectionController, CatalogSection {
    static let id: SectionID = "text"
    static let title = "Text"
    private let text: String
    init(_ text: String) {
        self.text = text
        super.init(id: Self.id, title: Self.title)
    }
    override func render(into html: inout HTMLWriter) { p { text }.render(into: &html) }
}

/// A page that reads its visitor as a number, where the site's sign-in makes names.
private struct CountPage: ComposedPage {
    let name = "count"
    let title = "Count"
    let catalog = PageCatalog<Int>([.section(TextSection.self) { setup in TextSection(String(setup.context)) }], defaults: [TextSection.self])

    func context(from request: Request, visitor: SignedIn<Int>?) throws(HTTPError) -> Int {
        guard let visitor else { throw .signInRequired }
        return visitor.user
    }
}

/// A page anyone may see: it greets a visitor who is signed in.
private struct LobbyPage: ComposedPage {
    let name = "lobby"
    let title = "Lobby"
    let isPublic = true
    let catalog = PageCatalog<String>(
        [.section(TextSection.self) { setup in TextSection(setup.context) }], defaults: [TextSection.self])

    func context(from request: Request, visitor: SignedIn<String>?) -> String { "Hello, " + (visitor?.user ?? "stranger") }
}

private func site(live: LiveHub? = nil) -> Site {
    var site = Site(name: "Test", head: DocumentHead(language: "en"), home: .init(path: "/plain", label: "Back"))
    site.signIn = NameSignIn()
    site.live = live
    return site
}

/// `site()` as pages are kept on: live versions and a section cache, with `signIn`.
private func keepingSite(_ signIn: some SignIn) -> Site {
    var site = site(live: LiveHub())
    site.signIn = signIn
    site.sectionCache = SectionCache(capacity: 1 << 20)
    return site
}

private func router(_ site: Site) -> Router {
    var router = Router(logger: LogCollector().logger)
    router.useErrorPages(of: site)
    router.addPage(PlainPage(), in: site)
    router.addPage(DiaryPage(), in: site)
    router.addPage(LobbyPage(), in: site)
    return router
}

@Suite("Pages are private unless they say otherwise")
struct PrivatePageTests {
    @Test("A page that says nothing about users is refused to nobody: 303 to sign in for a browser, 401 for a script")
    func nobodyIsRefused() async throws {
        let client = InProcessClient(router(site(live: LiveHub())))
        for (path, signInFirst) in [
            ("/plain", "/login?next=/plain"), ("/plain/sections/watched", "/login?next=/plain/sections/watched"),
            ("/plain?sections=watched&stream=0", "/login?next=/plain"),
        ] {
            let response = try await client.get(path)
            #expect(response.status == .seeOther, "\(path)")
            #expect(response.headers["Location"] == signInFirst, "\(path)")
            #expect(!response.bodyText.contains("Watched"), "\(path)")
        }
        for path in ["/api/plain/sections", "/plain/live"] {
            let response = try await client.get(path)
            #expect(response.status == .unauthorized, "\(path)")
            #expect(response.headers["WWW-Authenticate"] == #"Bearer realm="sectional""#, "\(path)")
            #expect(!response.bodyText.contains("watched"), "\(path)")
        }
        let signedIn = try await client.get("/plain", headers: ["Authorization": "Bearer alice"])
        #expect(signedIn.status == .ok)
        #expect(signedIn.bodyText.contains("Watched"))
    }

    @Test("Each visitor sees their own data, and a credential that is not valid is refused, not served as nobody")
    func ownData() async throws {
        let client = InProcessClient(router(site()))
        let alice = try await client.get("/diary", headers: ["Authorization": "Bearer alice"])
        #expect(alice.bodyText.contains("The diary of alice"))
        #expect(!alice.bodyText.contains("The diary of bob"))
        let bob = try await client.get("/api/diary/sections", headers: ["Authorization": "Bearer bob"])
        #expect(bob.status == .ok)
        let bobsCard = try await client.get("/diary/sections/text", headers: ["Authorization": "Bearer bob"])
        #expect(bobsCard.bodyText.contains("The diary of bob"))
        for path in ["/diary", "/lobby"] {
            let forged = try await client.get(path, headers: ["Authorization": "Bearer mallory"])
            #expect(forged.status == .unauthorized, "\(path)")
            #expect(!forged.bodyText.contains("diary of") && !forged.bodyText.contains("Hello"), "\(path)")
        }
    }

    @Test("A public page is served to anyone, and to someone signed in as them")
    func publicPage() async throws {
        let client = InProcessClient(router(site()))
        let stranger = try await client.get("/lobby")
        #expect(stranger.status == .ok)
        #expect(stranger.bodyText.contains("Hello, stranger"))
        #expect(try await client.get("/lobby", headers: ["Authorization": "Bearer bob"]).bodyText.contains("Hello, bob"))
        #expect(try await client.get("/api/lobby/sections").status == .ok)
    }

    @Test("The access log names who sent each request: a page, a fragment, a route of the app's own and a 304; nobody on a public page")
    func logNamesVisitor() async throws {
        let site = keepingSite(KeptNameSignIn())
        var router = router(site)
        router.get("/me") { [site] request in try await "you are " + site.requireVisitor(request, as: String.self).user }
        let log = LogCollector()
        let logger = log.logger.with(level: .info, format: .json)
        var configuration = ServerConfiguration.forTests()
        configuration.accessLog = true
        var tagged: TestResponse?
        try await withLiveServer(router, configuration: configuration, logger: logger) { server in
            let client = LiveClient(port: server.port)
            #expect(try await client.get("/plain/sections/watched", headers: ["Authorization": "Bearer alice"]).status == .ok)
            #expect(try await client.get("/me", headers: ["Authorization": "Bearer alice"]).bodyText == "you are alice")
            #expect(try await client.get("/lobby").status == .ok)
            tagged = try await client.get("/plain?stream=0", headers: ["Authorization": "Bearer bob"])
            let tag = try #require(tagged?.headers["ETag"])
            let again = try await client.get("/plain?stream=0", headers: ["Authorization": "Bearer bob", "If-None-Match": tag])
            #expect(again.status == .notModified)
        }
        let lines = log.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        func users(of path: String) -> [String?] { lines.filter { $0["path"] as? String == path }.map { $0["user"] as? String } }
        #expect(users(of: "/plain/sections/watched") == ["alice"])
        #expect(users(of: "/me") == ["alice"])
        #expect(users(of: "/lobby") == [nil], "nobody signed in")
        #expect(users(of: "/plain?stream=0") == ["bob", "bob"], "the page, then its 304")
        #expect(lines.filter { $0["path"] as? String == "/plain?stream=0" }.map { $0["status"] as? Int } == [200, 304])
    }

    @Test("A public page is sent again as kept to someone signed in, and to nobody without a credential, never under a credential nobody holds")
    func keptOnlyForRealCredentials() async throws {
        let site = keepingSite(LenientSignIn())
        var router = router(site)
        router.addPage(HallPage(), in: site)
        let client = InProcessClient(router)
        func timingOfSecond(_ headers: HTTPHeaders) async throws -> String? {
            #expect(try await client.get("/hall?stream=0", headers: headers).status == .ok)
            return try await client.get("/hall?stream=0", headers: headers).headers["Server-Timing"]
        }
        #expect(try await timingOfSecond(["Authorization": "Bearer alice"]) == "kept;dur=0.000")
        #expect(try await timingOfSecond([:]) == "kept;dur=0.000", "nobody, with no credential")
        #expect(try await timingOfSecond(["Authorization": "Bearer mallory"]) != "kept;dur=0.000", "made again: nothing is kept for mallory's token")
    }

    @Test("A private page on a site with no sign-in stops the program as the router is built")
    func privatePageNeedsSignIn() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.addPage(PlainPage(), in: Site(name: "Test", head: DocumentHead(language: "en"), home: .init(path: "/", label: "Back")))
        }
    }

    @Test("A page that reads a user of another type than the site's sign-in makes stops the program as the router is built")
    func mismatchedUserType() async {
        await #expect(processExitsWith: .failure) {
            var router = Router()
            router.addPage(CountPage(), in: site())
        }
    }

    @Test("Each signed-in user has their own live-stream limit, on a page that declares nothing about users")
    func liveLimitPerUser() async throws {
        let hub = LiveHub(limitPerUser: 1, limitTotal: 8)
        try await withLiveServer(router(site(live: hub))) { server in
            let alice = try await LiveReader(port: server.port, as: "alice")
            let bob = try await LiveReader(port: server.port, as: "bob")
            hub.publish("watched")
            #expect(try await alice.waitFor("event: section"), "bob's stream did not end alice's")
            #expect(try await bob.waitFor("event: section"))
            let alicesSecond = try await LiveReader(port: server.port, as: "alice")
            #expect(try await alice.waitFor("event: end"), "alice's second stream ends her first: the limit is hers")
            hub.publish("watched")
            #expect(try await alicesSecond.waitFor("event: section"))
            #expect(try await bob.waitFor("event: section", occurrences: 2), "bob's stream is still open")
            #expect(!bob.client.unreadText.contains("event: end"))
        }
    }
}

/// `/plain/live` as one visitor's browser opens it. A class handed between
/// the test's task and the threads it reads on, one at a time: that is why
/// it may cross.
private final class LiveReader: @unchecked Sendable {
    let client: RawHTTPClient

    /// Opens the stream as `name`, and waits for it to begin.
    init(port: Int, as name: String) async throws {
        // Each wait ends as soon as its marker arrives; ten seconds is for a machine running every suite at once.
        client = try RawHTTPClient(port: port, timeout: .seconds(10))
        try client.send("GET /plain/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\nAuthorization: Bearer \(name)\r\n\r\n")
        #expect(try await waitFor("retry: 1000"), "the stream of \(name) began")
    }

    func waitFor(_ marker: String, occurrences: Int = 1) async throws -> Bool {
        try await onOwnThread { [self] in client.waitFor(marker, occurrences: occurrences) }
    }
}
