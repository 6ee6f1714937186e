import FeedApp
import Foundation
import HTTPServer
import SectionalAccounts
import SectionalSecurity
import SectionalTesting
import Testing

/// The app on `data` with its clock and account settings, and a browser on it.
private func browser(
    _ data: AppData, now: TestNow = TestNow(), accounts: AccountSettings = AccountSettings()
) throws -> (Browser, InProcessClient) {
    let router = try buildRouter(
        publicDirectory: FormHarness.publicDirectory, data: data, settings: AppSettings(accounts: accounts), now: now.now,
        logger: LogCollector().logger)
    let client = InProcessClient(router)
    return (Browser(client), client)
}

@Suite("Signing in and out", .timeLimit(.minutes(1)))
struct SignInTests {
    @Test("Without a session a page is a 303 to /signin that comes back; the API is a JSON 401", arguments: Engine.allCases)
    func anonymous(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let (browser, _) = try browser(data)
            let page = try await browser.get("/feed?add=checkup&stream=0")
            #expect(page.status == .seeOther)
            #expect(page.headers["Location"] == "/signin?next=/feed%3Fadd%3Dcheckup")
            for target in ["/day?date=2026-11-03", "/feed/sections/balances", "/day/sections/sleep"] {
                #expect(try await browser.get(target).status == .seeOther, "\(target)")
            }
            for target in ["/api/feed/sections", "/api/day/sections"] {
                let api = try await browser.get(target)
                #expect(api.status == .unauthorized)
                #expect(api.headers["Content-Type"] == "application/json")
                #expect(api.bodyText.contains(#""status":401"#))
            }
            #expect(try await browser.get("/healthz").status == .ok)
            #expect(try await browser.get("/styles.css").status == .ok)
            let form = try await browser.get("/signin?next=/feed")
            #expect(form.status == .ok)
            #expect(form.bodyText.contains(#"autocomplete="current-password""#))
            #expect(form.bodyText.contains("alex-demo-1"), "the demo users are named while the demo data is in use")
        }
    }

    @Test("Signing in sets a session cookie and leads back; signing out ends the session on the server", arguments: Engine.allCases)
    func signInAndOut(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let (browser, _) = try browser(data)
            let signedIn = try await browser.signIn("alex", "alex-demo-1", next: "/day?date=2026-11-03")
            #expect(signedIn.status == .seeOther)
            #expect(signedIn.headers["Location"] == "/day?date=2026-11-03")
            let cookie = try #require(signedIn.headers["Set-Cookie"])
            #expect(cookie.hasPrefix("sectional_session="))
            for attribute in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=604800"] { #expect(cookie.contains(attribute), "\(cookie)") }
            #expect(!cookie.contains("Secure"), "plain HTTP from no trusted proxy: a Secure cookie would never come back")

            let feed = try await browser.get("/feed?stream=0")
            #expect(feed.status == .ok)
            #expect(feed.bodyText.contains("Alex O&#39;Brien"))
            let session = try #require(browser.cookie)
            let signOut = try #require(Browser.form("/signout", in: feed.bodyText))
            let out = try await browser.post("/signout", form: signOut)
            #expect(out.status == .seeOther)
            #expect(out.headers["Location"] == "/signin?notice=signed-out")
            #expect(out.headers["Set-Cookie"]?.contains("Max-Age=0") == true)
            browser.cookie = nil
            let told = try await browser.get("/signin?notice=signed-out").bodyText
            #expect(told.contains(#"<p class="notice" role="status">You are signed out.</p>"#))
            // The old cookie, replayed, is worth nothing: the session is gone from the database.
            browser.cookie = session
            #expect(try await browser.get("/feed").status == .seeOther)
        }
    }

    @Test("Each sign-in makes a new session; a session planted before it is dropped")
    func fixation() async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            let (browser, _) = try browser(data)
            try await browser.signIn("alex", "alex-demo-1")
            let first = try #require(browser.cookie)
            try await browser.signIn("alex", "alex-demo-1")
            let second = try #require(browser.cookie)
            #expect(first != second)
            browser.cookie = first
            #expect(try await browser.get("/feed").status == .seeOther, "the session in place at sign-in must end")
        }
    }

    @Test("A wrong password and an unknown name get the same answer, and both wait for a password check")
    func sameAnswer() async throws {
        let (visitor, _) = try browser(try AppData.memory())
        let wrong = try await visitor.signIn("sam", "not-it")
        let unknown = try await visitor.signIn("nobody", "not-it")
        #expect(wrong.status == .unauthorized && unknown.status == .unauthorized)
        #expect(problem(wrong) == problem(unknown), "the two answers differ")
        #expect(problem(wrong) != nil)

        // A hasher that may check nothing now: were an unknown name answered without a check, it would
        // still be a quick 401 and tell an attacker which names exist. What a check costs is in PasswordHasherTests.
        let (full, _) = try browser(try AppData.memory(hasher: PasswordHasher(.minimal, concurrentLimit: 0)))
        #expect(try await full.signIn("sam", "not-it").status == .serviceUnavailable)
        #expect(try await full.signIn("nobody", "not-it").status == .serviceUnavailable)
    }

    private func problem(_ response: TestResponse) -> String? {
        response.bodyText.firstMatch(of: /<p class="signin-problem"[^>]*>[^<]*<\/p>/).map { String($0.output) }
    }

    @Test(
        "A way back that leaves the site is replaced by the feed",
        arguments: ["//evil.example", "https://evil.example/", "/\\evil.example", "http:evil", "javascript:alert(1)", "/\t/evil.example", "///evil"])
    func noOpenRedirect(next: String) async throws {
        try await TestDatabase.withData(.memory) { data, _ in
            let (browser, _) = try browser(data)
            #expect(try await browser.signIn("alex", "alex-demo-1", next: next).headers["Location"] == "/feed")
            let form = try await browser.get("/signin?next=" + PercentEncoding.encode(next))
            #expect(form.headers["Location"] == "/feed", "signed in, /signin goes on to a local page only")
        }
    }

    @Test("Bad sign-in posts: empty fields 400, another content type 415, another site 403", arguments: Engine.allCases)
    func badPosts(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let (browser, client) = try browser(data)
            #expect(try await browser.post("/signin", form: [("name", "alex")]).status == .badRequest)
            #expect(
                try await client.execute(.post, "/signin", headers: ["Content-Type": "text/plain"], body: Array("x".utf8)).status
                    == .unsupportedMediaType)
            let crossSite = try await browser.post(
                "/signin", form: [("name", "alex"), ("password", "alex-demo-1")], headers: ["Sec-Fetch-Site": "cross-site"])
            #expect(crossSite.status == .forbidden)
            #expect(browser.cookie == nil)
        }
    }
}

@Suite("Sign-in refuses control characters", .timeLimit(.minutes(1)))
struct SignInControlCharacterTests {
    /// Bound as a C string, `alex\0' OR 1=1--` was looked up as `alex` and,
    /// with alex's password, signed in. A control character in any form
    /// field is a 400 that names it, and no session is made.
    @Test("A NUL or another control character in the name is a 400 that says why", arguments: ["alex\u{0}' OR 1=1--", "alex\u{1}", "al\u{7F}ex"])
    func controlInName(name: String) async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            let (browser, _) = try browser(data)
            let answer = try await browser.signIn(name, "alex-demo-1")
            #expect(answer.status == .badRequest)
            #expect(answer.bodyText.contains("control character (U+"), "\(answer.bodyText.prefix(300))")
            #expect(answer.headers["Set-Cookie"] == nil)
            #expect(browser.cookie == nil)
        }
    }

    @Test("Tabs and line ends are text, as a text area sends them: a wrong name, not a bad request")
    func lineEndsAreText() async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            let (browser, _) = try browser(data)
            #expect(try await browser.signIn("alex\r\n", "alex-demo-1").status == .unauthorized)
        }
    }
}

@Suite("Sessions expire", .timeLimit(.minutes(1)))
struct SessionExpiryTests {
    // In memory too: there a fresh session is read with no task, and one that is due a touch or has ended is left to the accounts' async path.
    @Test("Unused for longer than the idle time, a session ends; used, it lives until its lifetime", arguments: Engine.allCases)
    func expiry(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let now = TestNow()
            let settings = AccountSettings(sessionIdle: .seconds(600), sessionLifetime: .seconds(3_000))
            let (browser, _) = try browser(data, now: now, accounts: settings)
            try await browser.signIn("alex", "alex-demo-1")
            for _ in 0..<4 {  // in use every 590 s: alive past 2,000 s
                now.advance(590)
                #expect(try await browser.get("/api/feed/sections").status == .ok)
            }
            now.advance(590)  // 2,950 s
            #expect(try await browser.get("/api/feed/sections").status == .ok)
            now.advance(60)  // past the 3,000 s lifetime
            #expect(try await browser.get("/api/feed/sections").status == .unauthorized)

            try await browser.signIn("alex", "alex-demo-1")
            now.advance(601)
            #expect(try await browser.get("/feed").status == .seeOther, "idle past 600 s")
        }
    }
}

@Suite("A session's last visit", .timeLimit(.minutes(1)))
struct SessionTouchTests {
    @Test("A visit writes the session's last-seen time once it is a minute old, and not again within the minute", arguments: Engine.allCases)
    func touchedOncePerMinute(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let now = TestNow()
            let (browser, _) = try browser(data, now: now)
            try await browser.signIn("alex", "alex-demo-1")
            let cookie = try #require(browser.cookie)
            let hash = SecretToken.hash(String(cookie.drop { $0 != "=" }.dropFirst()))
            func lastSeen() async throws -> Int? { try await data.accounts.session(tokenHash: hash)?.lastSeenAt }
            let signedInAt = try #require(try await lastSeen())
            now.advance(59)
            #expect(try await browser.get("/api/feed/sections").status == .ok)
            #expect(try await lastSeen() == signedInAt, "a visit within the minute writes nothing")
            now.advance(1)
            #expect(try await browser.get("/api/feed/sections").status == .ok)
            #expect(try await lastSeen() == signedInAt + 60, "a minute on, the visit is written")
            now.advance(59)
            #expect(try await browser.get("/feed").status == .ok)
            #expect(try await lastSeen() == signedInAt + 60, "not yet due again")
        }
    }
}

@Suite("A user's sessions are capped", .timeLimit(.minutes(1)))
struct SessionCapTests {
    /// Every sign-in added a session row, and only expired ones were deleted.
    @Test("Signing in an eleventh time ends the least recently used session; the ten others go on", arguments: Engine.sql)
    func eleventhSignIn(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let now = TestNow()
            let (first, client) = try browser(data, now: now, accounts: SignInLimitTests.fromAnywhere)
            var browsers = [first]
            for _ in 1..<11 { browsers.append(Browser(client)) }
            for (index, browser) in browsers.enumerated() {
                now.advance(1)
                let answer = try await browser.post(
                    "/signin", form: [("name", "alex"), ("password", "alex-demo-1")], headers: ["X-Forwarded-For": "10.0.0.\(index)"])
                #expect(answer.status == .seeOther)
            }
            #expect(try await browsers[0].get("/api/feed/sections").status == .unauthorized, "the oldest session ended")
            for browser in browsers.dropFirst() { #expect(try await browser.get("/api/feed/sections").status == .ok) }
        }
    }
}

@Suite("A short idle time", .timeLimit(.minutes(1)))
struct ShortIdleTests {
    /// With `--session-idle 1m`, visits at 20, 40 and 55 s were sent to
    /// /signin at 63 s: `last_seen_at` was written at most once a minute, so
    /// the window shrank by up to a minute. Now a tenth of the idle time.
    @Test("A session in use within a one-minute idle time stays signed in; left alone a minute, it ends", arguments: Engine.sql)
    func activeSessionLives(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let now = TestNow()
            let (browser, _) = try browser(data, now: now, accounts: AccountSettings(sessionIdle: .seconds(60)))
            try await browser.signIn("alex", "alex-demo-1")
            var elapsed = 0
            for second in [20, 40, 55, 63, 110] {
                now.advance(second - elapsed)
                elapsed = second
                #expect(try await browser.get("/api/feed/sections").status == .ok, "in use at \(second) s")
            }
            now.advance(59)
            #expect(try await browser.get("/api/feed/sections").status == .ok, "59 s after the last visit")
            now.advance(61)
            #expect(try await browser.get("/api/feed/sections").status == .unauthorized, "a minute after the last visit")
        }
    }
}

@Suite("Sign-in is rate limited", .timeLimit(.minutes(1)))
struct SignInLimitTests {
    /// In process a request has no address ("unknown"): trusting that as a
    /// proxy lets each attempt say where it came from with X-Forwarded-For.
    static let fromAnywhere = AccountSettings(trustedProxies: ["unknown"])

    private func retryAfter(_ response: TestResponse) -> Int? { response.headers["Retry-After"].flatMap(Int.init) }

    /// Six wrong passwords once locked an account for 15 minutes from
    /// anywhere, renewably: anyone could lock anyone out.
    @Test(
        "Past five failures from one address each attempt waits a doubling delay; the owner signs in from elsewhere at once",
        arguments: Engine.allCases)
    func growingDelays(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let now = TestNow()
            let (browser, _) = try browser(data, now: now, accounts: Self.fromAnywhere)
            for attempt in 0..<5 {
                #expect(try await browser.signIn("alex", "wrong-\(attempt)", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .unauthorized)
            }
            let held = try await browser.signIn("alex", "alex-demo-1", headers: ["X-Forwarded-For": "10.0.0.1"])
            #expect(held.status == .tooManyRequests)
            #expect(retryAfter(held) == 1)
            #expect(held.bodyText.contains("Try again in 1 s."))
            now.advance(1)
            #expect(try await browser.signIn("alex", "wrong-5", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .unauthorized)
            #expect(retryAfter(try await browser.signIn("alex", "wrong-6", headers: ["X-Forwarded-For": "10.0.0.1"])) == 2, "the delay doubles")
            now.advance(2)
            #expect(try await browser.signIn("alex", "wrong-6", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .unauthorized)
            #expect(retryAfter(try await browser.signIn("alex", "wrong-7", headers: ["X-Forwarded-For": "10.0.0.1"])) == 4)

            #expect(
                try await browser.signIn("alex", "alex-demo-1", headers: ["X-Forwarded-For": "10.0.0.2"]).status == .seeOther,
                "not locked out from elsewhere")
        }
    }

    @Test("Guesses at one name from many addresses hold it back a minute at most")
    func perName() async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            let now = TestNow()
            let (browser, _) = try browser(data, now: now, accounts: Self.fromAnywhere)
            for address in 0..<20 {
                #expect(try await browser.signIn("alex", "guess", headers: ["X-Forwarded-For": "10.1.0.\(address)"]).status == .unauthorized)
            }
            let held = try await browser.signIn("alex", "alex-demo-1", headers: ["X-Forwarded-For": "10.2.0.1"])
            #expect(held.status == .tooManyRequests)
            let wait = try #require(retryAfter(held))
            #expect(wait >= 1 && wait <= 60)
            now.advance(wait)
            #expect(try await browser.signIn("alex", "alex-demo-1", headers: ["X-Forwarded-For": "10.2.0.1"]).status == .seeOther)
        }
    }

    @Test("A success clears its name's failures, never its address's; guesses across names from one address are held back")
    func perAddress() async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            let (browser, _) = try browser(data, accounts: Self.fromAnywhere)
            for attempt in 0..<2 {
                #expect(try await browser.signIn("sam", "wrong-\(attempt)", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .unauthorized)
            }
            #expect(try await browser.signIn("sam", "sam-demo-2", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .seeOther)
            for index in 0..<18 {
                #expect(try await browser.signIn("a\(index)", "guess", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .unauthorized)
            }
            // Twenty failures from this address: signing in to one's own account did not reset that.
            let held = try await browser.signIn("sam", "sam-demo-2", headers: ["X-Forwarded-For": "10.0.0.1"])
            #expect(held.status == .tooManyRequests, "\(held.status)")
            #expect(try await browser.signIn("sam", "sam-demo-2", headers: ["X-Forwarded-For": "10.0.0.2"]).status == .seeOther)
        }
    }

    @Test("Successful sign-ins count too: the sixth from one address within the window waits")
    func successesCount() async throws {
        try await TestDatabase.withData(.sqlite) { data, _ in
            let (browser, _) = try browser(data, accounts: Self.fromAnywhere)
            for _ in 0..<5 { #expect(try await browser.signIn("sam", "sam-demo-2", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .seeOther) }
            #expect(try await browser.signIn("sam", "sam-demo-2", headers: ["X-Forwarded-For": "10.0.0.1"]).status == .tooManyRequests)
        }
    }

    /// One client signing in (rightly) eight at a time once turned 13 of
    /// another person's 29 sign-ins away with 503: checks were capped
    /// server-wide and refused at once past the cap.
    @Test("One account's burst of sign-ins does not turn another account's away, from the same address")
    func fairness() async throws {
        let now = TestNow()
        let data = try AppData.memory(hasher: PasswordHasher(.minimal, concurrentLimit: 1))
        let (browser, _) = try browser(data, now: now, accounts: Self.fromAnywhere)
        for _ in 0..<10 {
            now.advance(900)  // a window of its own each round: the line is what is tested
            let alex = try await withThrowingTaskGroup(of: (String, Int).self) { group in
                for _ in 0..<8 {
                    group.addTask { ("sam", try await browser.signIn("sam", "sam-demo-2", headers: ["X-Forwarded-For": "10.0.0.1"]).status.code) }
                }
                group.addTask { ("alex", try await browser.signIn("alex", "alex-demo-1", headers: ["X-Forwarded-For": "10.0.0.1"]).status.code) }
                return try await group.reduce(into: [Int]()) { if $1.0 == "alex" { $0.append($1.1) } }
            }
            #expect(alex == [303], "alex's sign-in beside sam's eight")
        }
    }

    @Test("Attempts sent at once are counted together: no more than the limit get a password check")
    func concurrentAttempts() async throws {
        try await TestDatabase.withData(.memory) { data, _ in
            let (browser, _) = try browser(data)
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for attempt in 0..<16 { group.addTask { try await browser.signIn("alex", "wrong-\(attempt)").status.code } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count <= 5, "\(statuses.sorted())")
            #expect(statuses.allSatisfy { [401, 429, 503].contains($0) }, "\(statuses.sorted())")
        }
    }

    @Test("A form post without a session leads to sign-in, then to the feed (the post cannot be repeated by a link)")
    func postWithoutSession() async throws {
        try await TestDatabase.withData(.memory) { data, _ in
            let (browser, _) = try browser(data)
            let response = try await browser.post("/feed/alerts/1/dismiss", form: [("token", "x")])
            #expect(response.status == .seeOther)
            #expect(response.headers["Location"] == "/signin")
            let signedIn = try await browser.signIn("alex", "alex-demo-1")
            #expect(signedIn.headers["Location"] == "/feed", "the site's home")
        }
    }
}
