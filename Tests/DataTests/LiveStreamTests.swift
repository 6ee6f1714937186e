import FeedApp
import Foundation
import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer
import SectionalTesting
import Testing

/// The app with a live hub, on a real server, and sessions for two users.
private struct LiveApp {
    let data: AppData
    let hub: LiveHub
    let router: Router

    init(hub: LiveHub = LiveHub(), clock: any Clock<Duration> = DeadlineClock()) throws {
        data = try AppData.memory()
        self.hub = hub
        router = try buildRouter(
            publicDirectory: FormHarness.publicDirectory, data: data, clock: clock, live: hub, logger: LogCollector().logger)
    }

    func browser() -> Browser { Browser(InProcessClient(router)) }
}

@Suite("Live sections over a real socket", .timeLimit(.minutes(1)))
struct LiveStreamTests {
    @Test("A live page's check of its visitor never spares the visitor's own next request its renewal of the session")
    func checkDoesNotSkipRenewal() async throws {
        let data = try AppData.memory()
        let now = TestNow(), clock = TestClock()
        let router = try buildRouter(
            publicDirectory: FormHarness.publicDirectory, data: data, clock: clock, now: now.now, live: LiveHub(), logger: LogCollector().logger)
        let alex = Browser(InProcessClient(router))
        try await alex.signIn("alex", "alex-demo-1")
        let cookie = try #require(alex.cookie)
        let hash = SecretToken.hash(String(cookie.drop { $0 != "=" }.dropFirst()))
        let signedInAt = try #require(try await data.accounts.session(tokenHash: hash)?.lastSeenAt)
        try await withLiveServer(router) { server in
            let stream = try LiveStreamClient(port: server.port, path: "/feed/live", cookie: cookie)
            #expect(try await stream.waitFor("retry: 1000"))
            now.advance(100)  // the session is due its renewal
            for _ in 0..<LiveHub.heartbeatSlices {
                await clock.advance(by: .seconds(15) / LiveHub.heartbeatSlices, whenSleepersReach: 1)
            }
            #expect(try await stream.waitFor(":hb"), "the heartbeat checked the visitor, without renewing")
            #expect(try await data.accounts.session(tokenHash: hash)?.lastSeenAt == signedInAt)
            #expect(try await alex.get("/feed").status == .ok)
            #expect(try await data.accounts.session(tokenHash: hash)?.lastSeenAt == signedInAt + 100, "the page renewed it")
        }
    }

    @Test("HEAD of a live stream answers its headers and holds no place in the hub")
    func headHoldsNoPlace() async throws {
        let app = try LiveApp()
        let alex = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        try await withLiveServer(app.router) { server in
            let cookie = try #require(alex.cookie)
            let head = try await onOwnThread {
                try RawHTTPClient(port: server.port).request("HEAD", "/feed/live", headers: ["Cookie: \(cookie)"])
            }
            #expect(head.status == 200)
            #expect(head.header("Content-Type") == "text/event-stream")
            #expect(app.hub.openStreams == 0)
            let stream = try LiveStreamClient(port: server.port, path: "/feed/live", cookie: cookie)
            #expect(try await stream.waitFor("retry: 1000"))
            #expect(app.hub.openStreams == 1, "a stream that is read holds one")
        }
    }

    @Test("A dismissal in one tab reaches the user's other tab at once; another user's stream gets nothing")
    func otherTab() async throws {
        let app = try LiveApp()
        let alex = app.browser(), sam = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        try await sam.signIn("sam", "sam-demo-2")
        let secondTab = app.browser()
        try await secondTab.signIn("alex", "alex-demo-1")
        let page = try await alex.get("/feed?stream=0").bodyText
        #expect(page.contains(#"data-section="alerts" aria-labelledby="alerts-title" data-live="0""#), "the card says the version it shows")
        let alert = try await app.data.feed.alerts(of: UserID(1))[0]
        let dismiss = try #require(Browser.form("/feed/alerts/\(alert.id)/dismiss", in: page))

        try await withLiveServer(app.router) { server in
            let port = server.port
            let tab = try LiveStreamClient(port: port, path: "/feed/live", cookie: secondTab.cookie!),
                samsTab = try LiveStreamClient(port: port, path: "/feed/live", cookie: sam.cookie!)
            #expect(try await tab.waitFor("retry: 1000"))
            #expect(try await samsTab.waitFor("retry: 1000"))
            #expect(try await alex.post("/feed/alerts/\(alert.id)/dismiss", form: dismiss).status == .seeOther)
            let clock = ContinuousClock()
            let start = clock.now
            #expect(try await tab.waitFor("event: section"))
            #expect(try await tab.waitFor("</section>"))
            // Pushed on the stream already open: nothing else would bring it (no
            // poll; a reconnect would be another socket). It takes milliseconds;
            // the bound only catches a push that never comes, with room for a
            // two-core machine running the whole suite at once (3 s was once
            // exceeded by 90 ms so).
            #expect(start.duration(to: clock.now) < .seconds(10))
            #expect(!tab.unreadText.contains(alert.title), "the dismissed alert is gone from the card")
            #expect(tab.unreadText.contains(".alerts=\(app.hub.version(of: "alerts:1")).credit-score="), "the event names the version it shows")
            // Sam's own change next: his stream's first event must be it, so nothing of alex's came before.
            app.hub.publish("alerts:2")
            #expect(try await samsTab.waitFor("</section>"))
            #expect(samsTab.unreadText.components(separatedBy: "event: section").count - 1 == 1, "sam's stream got alex's change")
            #expect(!samsTab.unreadText.contains(alert.title))
        }
    }

    @Test("Tabs of one session showing a card in different compositions each get it with their own links (events are shared only where they match)")
    func sharedEventsKeepTheirLinks() async throws {
        let app = try LiveApp()
        let alex = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        try await withLiveServer(app.router) { server in
            let withCheckup = try LiveStreamClient(port: server.port, path: "/feed/live?sections=balances,checkup", cookie: alex.cookie!)
            let alone = try LiveStreamClient(port: server.port, path: "/feed/live?sections=balances", cookie: alex.cookie!)
            let second = try LiveStreamClient(port: server.port, path: "/feed/live?sections=balances", cookie: alex.cookie!)
            for stream in [withCheckup, alone, second] { #expect(try await stream.waitFor("retry: 1000")) }
            // Which tab makes an event first, and whether another finds it made, varies from round to
            // round: twenty rounds, so that a tab given another composition's event does not pass them all
            // (with the page's address left out of the event's key, 15 runs of 15 failed).
            for round in 1...20 {
                app.hub.publish("accounts:1")
                for stream in [withCheckup, alone, second] {
                    #expect(try await stream.waitFor("</section>", occurrences: round), "round \(round)")
                }
                let ownLink = #"class="section-remove" href="/feed?sections=checkup""#
                #expect(withCheckup.unreadText.components(separatedBy: ownLink).count - 1 == round, "round \(round)")
                for stream in [alone, second] {
                    #expect(!stream.unreadText.contains("checkup"), "round \(round): a card of another composition's links")
                    #expect(stream.unreadText.components(separatedBy: #"class="section-remove" href="/feed?sections=""#).count - 1 == round)
                }
            }
        }
    }

    @Test("The stream is answered with the headers pages carry: nosniff, no framing, no referrer off the site")
    func securityHeaders() async throws {
        let app = try LiveApp()
        let alex = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        try await withLiveServer(app.router) { server in
            let stream = try LiveStreamClient(port: server.port, path: "/feed/live", cookie: alex.cookie!)
            #expect(try await stream.waitFor("retry: 1000"))
            let head = stream.unreadText.components(separatedBy: "\r\n\r\n")[0]
            for field in [
                "Content-Type: text/event-stream", "X-Content-Type-Options: nosniff", "X-Frame-Options: DENY", "Referrer-Policy: same-origin",
                "Cache-Control: no-store",
            ] {
                #expect(head.contains(field), "\(field) in \(head)")
            }
            #expect(head.contains("frame-ancestors 'none'"))
        }
    }

    @Test("A reconnect with an old Last-Event-ID gets what changed at once; a current one gets nothing")
    func resync() async throws {
        let app = try LiveApp()
        let alex = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        #expect(try await alex.get("/feed?stream=0").bodyText.contains(#"data-live="0""#))
        app.hub.publish("alerts:1")  // after the page was rendered, before its stream opens
        #expect(try await alex.get("/feed?stream=0").bodyText.contains(#"data-live="1""#))
        try await withLiveServer(app.router) { server in
            let port = server.port
            let stale = try LiveStreamClient(port: port, path: "/feed/live", cookie: alex.cookie!, lastEventID: "alerts=0")
            #expect(try await stale.waitFor("event: section"))
            let current = try LiveStreamClient(port: port, path: "/feed/live", cookie: alex.cookie!, lastEventID: "alerts=1")
            #expect(try await current.waitFor("retry: 1000"))
            // The next change's event must be the current stream's first: a resync would have come before it.
            app.hub.publish("alerts:1")
            #expect(try await current.waitFor(".alerts=2."))
            #expect(current.unreadText.components(separatedBy: "event: section").count - 1 == 1, "a current stream was sent a resync")
        }
    }

    @Test("Signing out ends the session's streams; a page without a session gets none")
    func signOutEnds() async throws {
        let app = try LiveApp()
        let alex = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        let page = try await alex.get("/feed?stream=0").bodyText
        try await withLiveServer(app.router) { server in
            let port = server.port
            let stream = try LiveStreamClient(port: port, path: "/feed/live", cookie: alex.cookie!)
            #expect(try await stream.waitFor("retry: 1000"))
            #expect(app.hub.openStreams == 1)
            #expect(try await alex.post("/signout", form: try #require(Browser.form("/signout", in: page))).status == .seeOther)
            #expect(try await stream.waitFor(LiveStreamClient.end), "the stream's chunked body ended")
            for _ in 0..<100 where app.hub.openStreams > 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(app.hub.openStreams == 0)
            let anonymous = try await onOwnThread { try RawHTTPClient(port: port).request("/feed/live") }
            #expect(anonymous.status == 401, "a script is told, not sent to a page: EventSource stops reconnecting")
        }
    }

    @Test("A user's stream past their limit ends their oldest; past the server's total it is a 429; no live section, no stream")
    func limits() async throws {
        let app = try LiveApp(hub: LiveHub(limitPerUser: 2, limitTotal: 3))
        let alex = app.browser(), sam = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        try await sam.signIn("sam", "sam-demo-2")
        try await withLiveServer(app.router) { server in
            let port = server.port
            let oldest = try LiveStreamClient(port: port, path: "/feed/live", cookie: alex.cookie!)
            #expect(try await oldest.waitFor("retry: 1000"))
            let open = [
                try LiveStreamClient(port: port, path: "/feed/live", cookie: alex.cookie!),
                try LiveStreamClient(port: port, path: "/feed/live", cookie: alex.cookie!),
            ]
            for stream in open { #expect(try await stream.waitFor("retry: 1000")) }
            #expect(try await oldest.waitFor(LiveStreamClient.end), "a reload's new stream ended the oldest")
            #expect(oldest.unreadText.contains("event: end\n"), "told not to reconnect")
            let samsFirst = try LiveStreamClient(port: port, path: "/feed/live", cookie: sam.cookie!)
            #expect(try await samsFirst.waitFor("retry: 1000"))
            let cookie = sam.cookie!
            // Refused, the connection is closed: idle, it would hold a place kept for pages.
            // Well short of the server's idle timeout, so that only the refusal can close it in time.
            let (refused, refusedThenClosed) = try await onOwnThread {
                let client = try RawHTTPClient(port: port, timeout: .seconds(5))
                return (try client.request("/feed/live", headers: ["Cookie: \(cookie)"]), client.waitForClose())
            }
            #expect(refused.status == 429, "the server's three streams are open")
            #expect(refused.header("Retry-After") != nil)
            #expect(refusedThenClosed, "the refused stream's connection stayed open")
            app.hub.closeAll()
            let (stopping, stoppingThenClosed) = try await onOwnThread {
                let client = try RawHTTPClient(port: port, timeout: .seconds(5))
                return (try client.request("/feed/live", headers: ["Cookie: \(cookie)"]), client.waitForClose())
            }
            #expect(stopping.status == 503, "a stopping replica's 503 is retried elsewhere by a proxy")
            #expect(stoppingThenClosed, "the stopping replica's connection stayed open")
            let alexCookie = alex.cookie!
            let noLive = try await onOwnThread {
                try RawHTTPClient(port: port).request("/feed/live?sections=checkup", headers: ["Cookie: \(alexCookie)"])
            }
            #expect(noLive.status == 404)
        }
    }
}

extension TakingTurns {
    /// Beside no launch of a process (`TakingTurns` says why).
    @Suite("A thousand live streams", .timeLimit(.minutes(1)))
    struct ThousandStreamsTests {
        @Test("With 1,000 streams open, closing the hub lets the server stop at once, not at the end of its grace period")
        func stopWithThousandStreams() async throws {
            let app = try LiveApp(hub: LiveHub(limitPerUser: 1_000, limitTotal: 1_000))
            let alex = app.browser()
            try await alex.signIn("alex", "alex-demo-1")
            var configuration = ServerConfiguration.forTests()
            configuration.connectionLimit = 1_100
            configuration.perClientConnectionLimit = 1_100
            // Streams that did not end would hold the stop for the whole grace period: one far
            // longer than the bound below, so that a stop slowed by the rest of the suite is not
            // mistaken for one that waited.
            configuration.shutdownGrace = .seconds(30)
            let server = try Server.start(configuration, responder: app.router, logger: LogCollector().logger)
            let port = server.port, cookie = alex.cookie!
            let streams = try (0..<1_000).map { _ in try LiveStreamClient(port: port, path: "/feed/live", cookie: cookie) }
            for _ in 0..<500 where app.hub.openStreams < 1_000 { try await Task.sleep(for: .milliseconds(20)) }
            #expect(app.hub.openStreams == 1_000)
            let clock = ContinuousClock()
            let start = clock.now
            app.hub.closeAll()
            await server.shutdown()
            let took = start.duration(to: clock.now)
            // At once: 0.1 s alone; 0.1 to 5.4 s while the rest of the suite runs on two cores.
            #expect(took < .seconds(12), "stopping took \(took)")
            withExtendedLifetime(streams) {}
        }
    }
}

@Suite("A live stream whose reader falls behind", .timeLimit(.minutes(1)))
struct LiveBacklogTests {
    /// Alex's `/feed/live`, its body read by `reader`; the task ends with the stream.
    private func open(_ app: LiveApp, reader: HeldReader) async throws -> Task<Void, Never> {
        let alex = app.browser()
        try await alex.signIn("alex", "alex-demo-1")
        let response = try await InProcessClient(app.router).answer(.get, "/feed/live", headers: ["Cookie": try #require(alex.cookie)])
        guard case .stream(let stream) = response.body else {
            Issue.record("/feed/live answered \(response.status) without a stream")
            throw CancellationError()
        }
        let task = Task { await stream.produce(into: ResponseBodyWriter(sink: reader)) }
        await reader.waitFor("retry: 1000")
        return task
    }

    /// A stream rendered and queued every change for a reader that took
    /// nothing (up to 4 MiB each; seven took the server from 27 to 53 MB).
    @Test("3,000 changes while the reader takes nothing queue nothing: it gets the newest card once, when it reads again")
    func newestNotBacklog() async throws {
        let app = try LiveApp()
        let reader = HeldReader()
        let stream = try await open(app, reader: reader)
        for _ in 0..<3_000 { app.hub.publish("alerts:1") }
        #expect(reader.text == "retry: 1000\n\n")
        reader.takeAll()
        await reader.waitFor("</section>")
        #expect(reader.text.contains("alerts=3000"), "the newest version, rendered when the reader was ready")
        reader.takeAll()
        app.hub.publish("alerts:1")
        await reader.waitFor("alerts=3001")
        #expect(reader.text.components(separatedBy: "event: section").count - 1 == 2, "one card a time the reader was ready, no more")
        stream.cancel()
        await stream.value
    }

    @Test("A reader that takes nothing for two heartbeats has its stream ended; one that reads keeps it")
    func stalledReaderEnds() async throws {
        let clock = TestClock()
        let app = try LiveApp(clock: clock)
        let stalled = HeldReader(), reading = HeldReader()
        let stalledStream = try await open(app, reader: stalled)
        let readingStream = try await open(app, reader: reading)
        for _ in 0..<2 {
            reading.takeAll()
            // One heartbeat for every stream, the hub's, a slice of the streams at a time.
            for _ in 0..<LiveHub.heartbeatSlices {
                await clock.advance(by: .seconds(15) / LiveHub.heartbeatSlices, whenSleepersReach: 1)
            }
        }
        await stalledStream.value
        #expect(stalled.isAbandoned)
        #expect(!stalled.text.contains(":hb"), "no heartbeat queued behind bytes not taken")
        await reading.waitFor(":hb")
        // The reading stream's heart beats on: it is asleep until the next beat, its stream open.
        await clock.advance(by: .zero, whenSleepersReach: 1)
        #expect(!reading.isAbandoned)
        readingStream.cancel()
        await readingStream.value
    }
}
