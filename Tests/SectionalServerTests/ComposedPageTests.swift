import HTTPServer
import Sectional
import SectionalServer
import SectionalTesting
import Testing

/// What the bridge gives an app that only declares a page: the whole
/// page, fragments, JSON, errors with typed details, the app's document.
@Suite("Serving a declared page")
struct ComposedPageTests {
    @Test("A page is served whole, as fragments and as JSON, in process and live", arguments: TestMode.allCases)
    func servedThreeWays(mode: TestMode) async throws {
        try await withTestClient(NotesApp.router(), mode) { client in
            let page = try await client.get("/notes")
            #expect(page.status == .ok)
            #expect(page.bodyText.contains(#"<section class="section" id="section-pinned""#))
            #expect(page.bodyText.contains("Buy &lt;milk&gt; &amp; bread"))
            #expect(page.bodyText.contains("<title>Notes · Notes</title>"))
            #expect(page.bodyText.contains(#"<header class="banner">Notes app, on notes</header>"#))

            let fragment = try await client.get("/notes/sections/archive")
            #expect(fragment.status == .ok)
            #expect(fragment.bodyText.hasPrefix(#"<section class="section" id="section-archive""#))

            let json = try await client.get("/api/notes/sections?add=archive")
            #expect(json.headers["Content-Type"] == "application/json")
            #expect(json.bodyText.contains(#""fragment":"/notes/sections/pinned?sections=pinned,latest,archive""#))
        }
    }

    @Test("A fragment's page makes its own section alone; a whole page makes every section of its plan")
    func fragmentMakesOneSection() {
        let catalog = NotesPage(clock: ContinuousClock()).catalog
        let plan = CompositionPlan(catalog: catalog.sections)
        let address = PageAddress(path: "/notes")
        let fragmentPage = StackPageController(id: "notes", title: "Notes")
        fragmentPage.addSections(from: catalog, SectionSetup(context: (), plan: plan, address: address, onlySection: "latest"))
        #expect(fragmentPage.children.map(\.id) == ["latest"])
        let wholePage = StackPageController(id: "notes", title: "Notes")
        wholePage.addSections(from: catalog, SectionSetup(context: (), plan: plan, address: address))
        #expect(wholePage.children.map(\.id) == ["pinned", "latest"])
    }

    @Test("The document's head is the app's: language, stylesheets and icon, none assumed; the one script is the framework's")
    func documentHeadIsTheApps() async throws {
        let client = InProcessClient(NotesApp.router(language: "fr"))
        let page = try await client.get("/notes?stream=0")
        #expect(page.bodyText.hasPrefix("<!DOCTYPE html>\n<html lang=\"fr\">"))
        #expect(page.bodyText.contains(#"<link rel="stylesheet" href="/notes.css">"#))
        #expect(!page.bodyText.contains("favicon"), "no icon unless the app names one")
        #expect(!page.bodyText.contains("/styles.css"))
        #expect(page.bodyText.components(separatedBy: "<script").count == 2, "one script")
        #expect(page.bodyText.contains(#"<script src="/_sectional/sectional.js?v="#))
    }

    @Test("The framework serves its page script itself, with its ETag; a browser that has it gets a 304; its version is in the page's link")
    func pageScript() async throws {
        let client = InProcessClient(NotesApp.router())
        let page = try await client.get("/notes?stream=0").bodyText
        let link = try #require(page.firstMatch(of: #/src="(/_sectional/sectional\.js\?v=([0-9a-f]+))"/#))
        let script = try await client.get(String(link.output.1))
        #expect(script.status == .ok)
        #expect(script.headers["Content-Type"] == "text/javascript; charset=utf-8")
        #expect(script.headers["ETag"] == "\"\(link.output.2)\"", "the link's version is the script's ETag")
        #expect(script.bodyText.contains("EventSource") && script.bodyText.contains("data-section-action"))
        let again = try await client.get("/_sectional/sectional.js", headers: ["If-None-Match": script.headers["ETag"]!])
        #expect(again.status == .notModified)
        #expect(again.bodyText.isEmpty)
        let stale = try await client.get("/_sectional/sectional.js", headers: ["If-None-Match": "\"0\""])
        #expect(stale.status == .ok)
    }

    @Test("A page controller that titles itself otherwise than its page names the document so")
    func documentTitleFollowsTheController() async throws {
        var router = Router(logger: LogCollector().logger)
        let site = Site(name: "Notes", head: DocumentHead(language: "en"), home: .init(path: "/notes", label: "Back"))
        router.addPage(RetitledPage(), in: site)
        let page = try await InProcessClient(router).get("/notes?stream=0")
        #expect(page.bodyText.contains("<title>Pinned notes · Notes</title>"))
        let plain = try await InProcessClient(NotesApp.router()).get("/notes?stream=0")
        #expect(plain.bodyText.contains("<title>Notes · Notes</title>"), "the page's own title otherwise")
    }

    @Test("An unknown section is a 400 whose JSON lists the valid sections as typed detail")
    func unknownSectionDetail() async throws {
        let client = InProcessClient(NotesApp.router())
        let json = try await client.get("/api/notes/sections?add=nope")
        #expect(json.status == .badRequest)
        #expect(json.bodyText.contains(#""validSections":["pinned","latest","archive"]"#))
        #expect(json.bodyText.contains(#""status":400"#))

        let page = try await client.get("/notes?remove=nope")
        #expect(page.status == .badRequest)
        #expect(page.bodyText.contains(#"<ul class="valid-sections"><li>pinned</li><li>latest</li><li>archive</li></ul>"#))
        #expect(page.bodyText.contains(#"<a href="/notes">Back to notes</a>"#))

        let fragment = try await client.get("/notes/sections/nope")
        #expect(fragment.status == .notFound)
        #expect(fragment.bodyText.contains("<li>archive</li>"))
    }

    @Test("Streamed in page order, the bytes are the whole page's but for placeholders; out of order, cards fill slots")
    func streamedEqualsWhole() async throws {
        let client = InProcessClient(NotesApp.router())
        for query in ["", "?sections=latest,pinned", "?add=archive", "?sections="] {
            let whole = try await client.get("/notes" + query + (query.isEmpty ? "?" : "&") + "stream=0")
            let streamed = try await client.get("/notes" + query)
            #expect(streamed.bodyText == whole.bodyText, "\(query)")
        }
        // With a section still loading when the page starts out, so that its card is sent later, into its place.
        let clock = TestClock()
        let slow = InProcessClient(NotesApp.router(clock: clock, waitDelay: .milliseconds(50)))
        async let streamed = slow.get("/notes")
        await clock.advance(by: .milliseconds(50), whenSleepersReach: 2)  // the load's sleep and its deadline
        let streamedText = try await streamed.bodyText
        async let whole = slow.get("/notes?stream=0")
        await clock.advance(by: .milliseconds(50), whenSleepersReach: 2)
        #expect(streamedText.withoutStreamPlaceholders == (try await whole.bodyText))

        let outOfOrder = try await client.get("/notes?stream=ooo").bodyText
        #expect(outOfOrder.contains(#"<template shadowrootmode="open"><link rel="stylesheet" href="/notes.css"><slot name="pinned">"#))
        #expect(outOfOrder.contains(#"data-section="latest" aria-labelledby="latest-title" slot="latest""#))
    }

    @Test("A whole page's timing travels in the response's own field and goes out as Server-Timing")
    func timingField() async throws {
        let router = NotesApp.router()
        let response = try await InProcessClient(router).answer(.get, "/notes?stream=0")
        let timing = try #require(response.timing)
        #expect(timing.entries.map(\.name) == ["load-latest", "render-pinned", "render-latest"])
        #expect(response.headers["Server-Timing"] == nil, "the server adds the header from the field")
        #expect(response.sentHeaders["Server-Timing"] == timing.headerValue)

        let log = LogCollector()
        var configuration = ServerConfiguration.forTests()
        configuration.accessLog = true
        try await withLiveServer(router, configuration: configuration, logger: log.logger) { server in
            let live = try await LiveClient(port: server.port).get("/notes?stream=0")
            #expect(live.headers["Server-Timing"]?.hasPrefix("load-latest;dur=") == true)
        }
        #expect(log.lines.contains { $0.contains("/notes?stream=0 200") && $0.contains("[load-latest;dur=") })
    }

    @Test("A site that turns Server-Timing off sends whole pages without it, the same page otherwise")
    func timingOff() async throws {
        let timed = try await InProcessClient(NotesApp.router()).answer(.get, "/notes?stream=0")
        let untimed = try await InProcessClient(NotesApp.router(serverTiming: false)).answer(.get, "/notes?stream=0")
        #expect(untimed.status == .ok)
        #expect(untimed.timing == nil)
        #expect(untimed.sentHeaders["Server-Timing"] == nil)
        #expect(untimed.bodyBytes == timed.bodyBytes)
        #expect(untimed.sentHeaders.fields.map(\.name) == timed.sentHeaders.fields.map(\.name).filter { $0 != "Server-Timing" })

        try await withLiveServer(NotesApp.router(serverTiming: false), configuration: .forTests()) { server in
            let live = try await LiveClient(port: server.port).get("/notes?stream=0")
            #expect(live.status == .ok)
            #expect(live.headers["Server-Timing"] == nil)
        }
    }
}

/// The notes page, its stack titled otherwise.
private struct RetitledPage: ComposedPage {
    let name = "notes"
    let title = "Notes"
    let isPublic = true
    let catalog = NotesPage(clock: ContinuousClock()).catalog

    func makePage(_ setup: SectionSetup<Void>) -> StackPageController {
        let page = StackPageController(id: "notes", title: "Pinned notes")
        page.addSections(from: catalog, setup)
        return page
    }
}
