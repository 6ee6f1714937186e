import FeedApp
import HTTPServer
import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalTesting
import Testing

@Suite("Writing through the feed's forms", .timeLimit(.minutes(1)))
struct FeedWriteTests {
    let alex = UserID(1)

    @Test("Dismissing an alert answers 303 back to the page, which no longer shows it", arguments: [Engine.memory, .sqlite])
    func dismiss(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let app = try await FormHarness(data)
            let dismissForms = try await app.forms(on: "/feed?add=checkup").filter { $0.action.hasSuffix("/dismiss") }
            #expect(dismissForms.count == SeedData.users[0].alerts.count)
            let form = try #require(dismissForms.first)
            let response = try await app.submit(form)
            #expect(response.status == .seeOther)
            #expect(response.headers["Location"] == "/feed?sections=balances,alerts,credit-score,checkup")
            let after = try await app.forms(on: "/feed")
            #expect(!after.contains { $0.action == form.action })
            #expect(after.contains { $0.action == "/feed/alerts/restore" })
            let page = try await app.get("/feed").bodyText
            #expect(page.contains("Show 1 dismissed alert"))

            // Twice, e.g. from a second tab: still a 303, nothing else changes.
            #expect(try await app.submit(form).status == .seeOther)
            #expect(try await data.feed.alerts(of: alex).filter(\.isDismissed).count == 1)

            let restore = try #require(after.first { $0.action == "/feed/alerts/restore" })
            let restored = try await app.submit(restore)
            #expect(restored.status == .seeOther)
            #expect(restored.headers["Location"] == "/feed?notice=alerts-restored")
            #expect(try await data.feed.alerts(of: alex).allSatisfy { !$0.isDismissed })
        }
    }

    @Test("Past the post limit a form gets the site's 429 page with Retry-After, and changes nothing")
    func postLimit() async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            // Three posts a minute: signing in takes one.
            let app = try await FormHarness(data, settings: AppSettings(postsPerMinute: 3))
            let dismiss = try #require(try await app.forms(on: "/feed").first { $0.action.hasSuffix("/dismiss") })
            #expect(try await app.submit(dismiss).status == .seeOther)
            let restore = try #require(try await app.forms(on: "/feed").first { $0.action == "/feed/alerts/restore" })
            #expect(try await app.submit(restore).status == .seeOther)

            let refused = try await app.submit(dismiss)
            #expect(refused.status == .tooManyRequests)
            // A post comes back every 20 s; some of them may have passed since the first.
            let wait = try #require(refused.headers["Retry-After"].flatMap { Int($0) })
            #expect((1...20).contains(wait))
            #expect(refused.bodyText.contains("Too many requests: try again in \(wait) s."))
            #expect(refused.bodyText.contains("<title>"), "the site's error page")
            #expect(try await data.feed.alerts(of: alex).allSatisfy { !$0.isDismissed })
            #expect(try await app.get("/feed").status == .ok, "reading is not limited")
        }
    }

    @Test("Saving a layout makes it the bare page's; query changes apply on top; reset brings the defaults back")
    func layout() async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            let app = try await FormHarness(data)
            let save = try #require(try await app.forms(on: "/feed?sections=credit-score,alerts").first { $0.action == "/feed/layout" })
            #expect(save.field("sections") == "credit-score,alerts")
            let saved = try await app.submit(save)
            #expect(saved.status == .seeOther)
            #expect(saved.headers["Location"] == "/feed?notice=layout-saved")
            let told = try await app.get("/feed?notice=layout-saved&stream=0").bodyText
            let notice = "Your layout is saved: a visit to your feed shows it from now on."
            #expect(told.contains(#"<div class="notice" role="status"><p>"# + notice + "</p></div>"))
            #expect(!told.contains("notice=layout-saved\""), "the page's links do not carry the notice: it shows once")
            let forged = try await app.get("/feed?notice=%3Cb%3EYou%20won%3C%2Fb%3E&stream=0").bodyText
            #expect(!forged.contains("class=\"notice\""), "a notice the site does not name shows nothing")

            let page = try await app.get("/feed?stream=0").bodyText
            #expect(page.contains("Showing your saved layout."))
            #expect(Self.sectionIDs(page) == ["credit-score", "alerts"])
            #expect(Self.sectionIDs(try await app.get("/feed?add=balances&stream=0").bodyText) == ["credit-score", "alerts", "balances"])
            #expect(Self.sectionIDs(try await app.get("/feed?sections=balances&stream=0").bodyText) == ["balances"])
            // Links that lead back to the saved layout need no query; links to the catalog's defaults spell them out.
            #expect(page.contains(#"href="/feed?sections=credit-score""#))

            let json = try await app.get("/api/feed/sections").bodyText
            #expect(json.contains(#""layout":"saved""#))
            #expect(json.contains(#""page":"/feed""#))
            #expect(try await app.get("/api/feed/sections?sections=alerts").bodyText.contains(#""layout":"query""#))

            let reset = try #require(try await app.forms(on: "/feed").first { $0.action == "/feed/layout/reset" })
            #expect(try await app.submit(reset).status == .seeOther)
            #expect(Self.sectionIDs(try await app.get("/feed?stream=0").bodyText) == ["balances", "alerts", "credit-score"])
            #expect(try await app.get("/api/feed/sections").bodyText.contains(#""layout":"default""#))
            #expect(try await !app.forms(on: "/feed").contains { $0.action == "/feed/layout/reset" })
            // Nothing to save on the bare page: the form is there for the page script, hidden.
            let bare = try await app.get("/feed?stream=0").bodyText
            #expect(bare.contains(#"<div data-hidden-at-base hidden><form class="post-form" method="post" action="/feed/layout">"#))
            let changed = try await app.get("/feed?sections=alerts&stream=0").bodyText
            #expect(changed.contains(#"<div data-hidden-at-base><form class="post-form" method="post" action="/feed/layout">"#))
        }
    }

    /// Every way a post can be wrong, each with the status it must get; none may change anything.
    static let refusals: [(name: String, status: Int, change: @Sendable (PostedForm) -> (PostedForm, HTTPHeaders))] = [
        ("no token", 403, { ($0.replacing("token", with: nil), ["Sec-Fetch-Site": "same-origin"]) }),
        ("a wrong token", 403, { ($0.replacing("token", with: String(repeating: "ab", count: 32)), [:]) }),
        ("a token that is not hex", 403, { ($0.replacing("token", with: "zz"), [:]) }),
        (
            "another form's token", 403,
            { form in (form.replacing("token", with: FormGuard(key: [UInt8](repeating: 7, count: 32)).token(for: form.action, subject: "1")), [:]) }
        ),
        ("a cross-site Sec-Fetch-Site", 403, { ($0, ["Sec-Fetch-Site": "cross-site"]) }),
        ("a same-site but other origin", 403, { ($0, ["Sec-Fetch-Site": "same-site"]) }),
        ("another site's Origin", 403, { ($0, ["Origin": "https://evil.example", "Host": "localhost:8080"]) }),
        ("a null Origin", 403, { ($0, ["Origin": "null", "Host": "localhost:8080"]) }),
        ("a JSON body", 415, { ($0, ["Content-Type": "application/json"]) }),
        ("a multipart body", 415, { ($0, ["Content-Type": "multipart/form-data; boundary=x"]) }),
    ]

    @Test("A bad post gets a clear 4xx and changes nothing", arguments: 0..<refusals.count)
    func refused(index: Int) async throws {
        let (name, status, change) = Self.refusals[index]
        try await TestDatabase.withData(.memory) { data, _ in
            let app = try await FormHarness(data)
            for form in try await app.forms(on: "/feed") {
                let (bad, headers) = change(form)
                let response = try await app.submit(bad, headers: headers)
                #expect(response.status.code == status, "\(name) to \(form.action): \(response.status)")
                #expect(!response.bodyText.isEmpty, "the refusal says why")
            }
            #expect(try await data.feed.alerts(of: alex).allSatisfy { !$0.isDismissed }, "\(name) changed an alert")
            #expect(try await data.layouts.savedLayout(of: alex, page: "feed").sections == nil, "\(name) saved a layout")
        }
    }

    @Test("Malformed, empty and unknown: 400, 403 or 404, never a 500, nothing changed")
    func malformed() async throws {
        try await TestDatabase.withData(.memory) { data, _ in
            let app = try await FormHarness(data)
            let forms = try await app.forms(on: "/feed")
            let dismiss = try #require(forms.first { $0.action.hasSuffix("/dismiss") })
            var form = ["Content-Type": "application/x-www-form-urlencoded"] as HTTPHeaders
            form.add("Cookie", app.cookie)
            #expect(try await app.client.execute(.post, dismiss.action, headers: form, body: Array("token=%zz".utf8)).status == .badRequest)
            #expect(try await app.client.execute(.post, dismiss.action, headers: form, body: [0xFF, 0xFE]).status == .badRequest)
            #expect(try await app.client.execute(.post, dismiss.action, headers: form, body: []).status == .forbidden)
            #expect(try await app.client.execute(.post, dismiss.action, headers: ["Cookie": app.cookie], body: []).status == .unsupportedMediaType)

            // Another user's alert, with a token the server really signed for that path but for this user: 404.
            let theirs = try await data.feed.alerts(of: UserID(2))[0]
            let path = "/feed/alerts/\(theirs.id)/dismiss"
            let signed = FormGuard(key: data.formKey).token(for: path, subject: app.sessionSubject)
            #expect(try await app.post(path, form: [("token", signed)]).status == .notFound)
            // A replayed token of one alert on another alert's path: 403.
            #expect(try await app.post(path, form: [("token", dismiss.field("token")!)]).status == .forbidden)
            let garbage = "/feed/alerts/abc/dismiss"
            #expect(
                try await app.post(garbage, form: [("token", FormGuard(key: data.formKey).token(for: garbage, subject: app.sessionSubject))]).status
                    == .notFound)

            let save = try #require(try await app.forms(on: "/feed?sections=alerts").first { $0.action == "/feed/layout" })
            #expect(try await app.submit(save.replacing("sections", with: "balances,nope")).status == .badRequest)
            #expect(try await app.submit(save.replacing("sections", with: nil)).status == .badRequest)
            #expect(try await app.get("/feed/layout").status == .methodNotAllowed)

            #expect(try await data.feed.alerts(of: UserID(2)).allSatisfy { !$0.isDismissed })
            #expect(try await data.feed.alerts(of: alex).allSatisfy { !$0.isDismissed })
            #expect(try await data.layouts.savedLayout(of: alex, page: "feed").sections == nil)
        }
    }

    @Test(
        "A way back that leaves the site is replaced by the page itself",
        arguments: ["//evil.example", "https://evil.example/", "/\\evil.example", "http:evil", "/\r\nSet-Cookie: x=1", " /feed"])
    func noOpenRedirect(back: String) async throws {
        try await TestDatabase.withData(.memory) { data, _ in
            let app = try await FormHarness(data)
            let form = try #require(try await app.forms(on: "/feed").first { $0.action.hasSuffix("/dismiss") })
            let response = try await app.submit(form.replacing("back", with: back))
            #expect(response.status == .seeOther)
            #expect(response.headers["Location"] == "/feed")
        }
    }

    static func sectionIDs(_ html: String) -> [String] {
        html.matches(of: /<section class="section" id="section-[^"]*" data-section="([^"]*)"/).map { String($0.output.1) }
    }
}

@Suite("The feed's forms over a real socket", .timeLimit(.minutes(1)))
struct LiveFeedWriteTests {
    @Test("A body over the limit is a 413 page before it is read; the data is unchanged")
    func oversized() async throws {
        try await TestDatabase.withData(.memory) { data, _ in
            let router = try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, logger: LogCollector().logger)
            try await withLiveServer(router) { server in
                let port = server.port
                let alert = try await data.feed.alerts(of: UserID(1))[0]
                let token = FormGuard(key: data.formKey).token(for: "/feed/alerts/\(alert.id)/dismiss", subject: "1")
                let body = "token=\(token)&back=" + String(repeating: "x", count: 70_000)
                let response = try await onOwnThread {
                    try RawHTTPClient(port: port).request(
                        "POST", "/feed/alerts/\(alert.id)/dismiss", headers: ["Content-Type: application/x-www-form-urlencoded"], body: body)
                }
                #expect(response.status == 413)
                #expect(response.header("Content-Type") == "text/html; charset=utf-8", "a page, as the form's other answers")
                #expect(response.text.contains("<!DOCTYPE html>") && response.text.contains("too large"))
                #expect(try await data.feed.alerts(of: UserID(1)).allSatisfy { !$0.isDismissed })
            }
        }
    }
}
