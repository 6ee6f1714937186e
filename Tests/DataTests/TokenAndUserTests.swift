import FeedApp
import Foundation
import HTTPServer
import SectionalAccounts
import SectionalSecurity
import SectionalTesting
import Testing

private func command(_ arguments: [String], on location: DatabaseLocation, input: String? = nil) async -> AdminCommand.Outcome {
    let url: String
    switch location {
    case .sqlite(let path): url = "sqlite:" + path
    case .postgres(let value): url = value
    case .memory: url = "memory:"
    }
    return await AdminCommand.run(arguments + ["--database", url], environment: [:], readLine: { input }, hasher: PasswordHasher(.minimal))
}

@Suite("API tokens and users from the command line", .timeLimit(.minutes(1)))
struct TokenAndUserTests {
    @Test("A token has the form of 64 hex digits; anything else is refused before it is hashed")
    func tokenForm() {
        let token = SecretToken.generate()
        #expect(SecretToken.isWellFormed(token))
        #expect(SecretToken.isWellFormed(token.uppercased()))
        for bad in [
            "", String(token.dropLast()), token + "0", String(token.dropLast()) + "g", String(token.dropLast()) + " ",
            String(token.dropLast(2)) + "é", String(repeating: "z", count: 64),
        ] {
            #expect(!SecretToken.isWellFormed(bad), "\(bad.debugDescription)")
            var bytes = bad
            #expect(bytes.withUTF8(SecretToken.hash(ofWellFormed:)) == nil, "refused unhashed: \(bad.debugDescription)")
        }
        for good in [token, token.uppercased()] {
            var bytes = good
            #expect(bytes.withUTF8(SecretToken.hash(ofWellFormed:)) == SecretToken.hash(good), "hashed in place as the string is")
        }
        #expect(SecretToken.hash(token) != SecretToken.hash(token.uppercased()), "the hash is of the bytes sent")
    }

    @Test("Every byte, at every place of a token, is taken as a hex digit exactly when it is one")
    func tokenFormByteByByte() {
        let hexDigits = Set("0123456789abcdefABCDEF".utf8)
        let token = Array(SecretToken.generate().utf8)
        for place in 0..<token.count {
            for byte in UInt8.min...UInt8.max {
                var changed = token
                changed[place] = byte
                let isWellFormed = changed.withUnsafeBufferPointer(SecretToken.isWellFormed)
                #expect(isWellFormed == hexDigits.contains(byte), "byte \(byte) at \(place)")
            }
        }
    }

    @Test("The memo of tokens' hashes gives each token's own hash, refuses what is not a token, and stays within its capacity")
    func tokenMemo() {
        let memo = SecretTokenMemo(capacity: 2)
        func hash(_ text: String) -> String? {
            var text = text
            return text.withUTF8(memo.hash(ofWellFormed:))
        }
        let tokens = (0..<5).map { _ in SecretToken.generate() }
        // Twice round: the second round reads hashes the first one kept, or worked out again after they were forgotten.
        for token in tokens + tokens {
            #expect(hash(token) == SecretToken.hash(token))
            #expect(memo.count <= 2)
        }
        // Tokens that differ in their last digit only, or in case only, are told apart.
        let first = tokens[0]
        let neighbour = String(first.dropLast()) + (first.last == "0" ? "1" : "0")
        #expect(hash(neighbour) == SecretToken.hash(neighbour))
        #expect(hash(first) == SecretToken.hash(first))
        #expect(hash(first.uppercased()) == SecretToken.hash(first.uppercased()))
        let before = memo.count
        for bad in ["", String(first.dropLast()), first + "0", String(first.dropLast()) + "g", String(repeating: "z", count: 64)] {
            #expect(hash(bad) == nil, "\(bad.debugDescription)")
        }
        #expect(memo.count == before, "nothing refused is kept")
    }

    @Test("A token made by `token create` reads the API as its user until `token revoke`; it is stored only as a hash", arguments: Engine.sql)
    func tokens(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, location in
            let created = await command(["token", "create", "sam", "--label", "a script"], on: location)
            #expect(created.status == 0, "\(created.errors)")
            let token = try #require(created.output.first)
            #expect(SecretToken.isWellFormed(token))
            let client = InProcessClient(try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, logger: LogCollector().logger))
            let api = try await client.get("/api/feed/sections?sections=balances", headers: ["Authorization": "Bearer " + token])
            #expect(api.status == .ok)
            let card = try await client.get("/feed/sections/balances", headers: ["Authorization": "Bearer " + token])
            #expect(card.bodyText.contains("Student Checking"), "sam's accounts")
            #expect(!card.bodyText.contains("Everyday Checking"), "never alex's")

            let list = await command(["token", "list"], on: location)
            #expect(list.output.count == 1 && list.output[0].contains("sam") && list.output[0].contains("active"))
            #expect(!list.output.joined().contains(token), "the token itself is shown once, never listed")
            if let pool = data.pool {
                let stored = try await pool.run { db in try db.query("SELECT token_hash FROM api_tokens", [])[0].text(0) }
                #expect(stored == SecretToken.hash(token))
            }
            // An API token carries no session: it cannot post the browser's forms.
            let form = try await client.post("/feed/alerts/restore", form: [("token", "x")], headers: ["Authorization": "Bearer " + token])
            #expect(form.status == .forbidden)

            let id = String(list.output[0].prefix { $0 != "\t" })
            #expect(await command(["token", "revoke", id], on: location).status == 0)
            #expect(await command(["token", "revoke", id], on: location).status == 1, "revoking twice says so")
            let revoked = try await client.get("/api/feed/sections", headers: ["Authorization": "Bearer " + token])
            #expect(revoked.status == .unauthorized)
            #expect(revoked.headers["WWW-Authenticate"]?.hasPrefix("Bearer") == true)
            for bad in ["", "nonsense", String(repeating: "0", count: 64)] {
                #expect(try await client.get("/api/feed/sections", headers: ["Authorization": "Bearer " + bad]).status == .unauthorized)
            }
        }
    }

    @Test("`user add` reads the password from standard input; the new user signs in; `user passwd` replaces it", arguments: Engine.sql)
    func users(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, location in
            let added = await command(["user", "add", "robin", "--display-name", "Robin <R> Hood"], on: location, input: "sherwood-forest")
            #expect(added.status == 0, "\(added.errors)")
            #expect(await command(["user", "add", "robin"], on: location, input: "another-password").status == 1, "the name is taken")
            #expect(await command(["user", "add", "short"], on: location, input: "1234").status == 1, "too short a password")
            let control = await command(["user", "add", "esc", "--display-name", "Robin\u{1B}[2J"], on: location, input: "long-enough")
            #expect(control.status == 2 && control.errors.joined().contains("control characters"), "\(control.errors)")
            #expect(await command(["user", "list"], on: location).output.contains { $0.contains("robin\tRobin <R> Hood") })

            let (browser, _) = (
                Browser(InProcessClient(try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, logger: LogCollector().logger))), 0
            )
            #expect(try await browser.signIn("robin", "sherwood-forest").status == .seeOther)
            #expect(try await browser.get("/feed?stream=0").bodyText.contains("Robin &lt;R&gt; Hood"))
            let before = browser.cookie
            #expect(await command(["user", "passwd", "robin"], on: location, input: "nottingham-castle").status == 0)
            #expect(try await browser.get("/feed").status == .seeOther, "a new password ends the sessions of the old one")
            browser.cookie = before
            #expect(try await browser.get("/feed").status == .seeOther)
            browser.cookie = nil
            #expect(try await browser.signIn("robin", "sherwood-forest").status == .unauthorized)
            #expect(try await browser.signIn("robin", "nottingham-castle").status == .seeOther)
        }
    }

    @Test("Without the demo data, the sign-in page names no demo user", arguments: Engine.sql)
    func noDemoNames(engine: Engine) async throws {
        try await TestDatabase.withData(engine, seed: false) { data, location in
            #expect(await command(["user", "add", "robin"], on: location, input: "sherwood-forest").status == 0)
            let client = InProcessClient(try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, logger: LogCollector().logger))
            let page = try await client.get("/signin").bodyText
            #expect(page.contains(#"name="password""#))
            #expect(!page.contains("alex-demo-1") && !page.contains("demo data"))
        }
    }

    @Test(
        "Bad arguments are one line and exit 2",
        arguments: [
            ["user"], ["user", "remove", "x"], ["user", "add"], ["token", "create"], ["token", "revoke", "x"], ["user", "list", "--bogus"],
            ["token", "list", "--database"],
        ])
    func badArguments(arguments: [String]) async {
        let outcome = await AdminCommand.run(arguments, environment: [:], readLine: { nil }, hasher: PasswordHasher(.minimal))
        #expect(outcome.status == 2)
        #expect(outcome.errors.count == 1 && !outcome.errors[0].contains("\n"))
    }

    @Test("Each subcommand has --help")
    func help() async {
        for group in ["user", "token"] {
            let outcome = await AdminCommand.run([group, "--help"], environment: [:], readLine: { nil }, hasher: PasswordHasher(.minimal))
            #expect(outcome.status == 0)
            #expect(outcome.output.joined().contains("Usage: feed-server \(group)"))
        }
    }
}

@Suite("One user never sees or changes another's data", .timeLimit(.minutes(1)))
struct CrossUserTests {
    @Test("Pages, fragments and JSON show the signed-in user's data only", arguments: Engine.allCases)
    func reads(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let sam = Browser(
                InProcessClient(try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, logger: LogCollector().logger)))
            try await sam.signIn("sam", "sam-demo-2")
            for target in [
                "/feed?stream=0&add=recent-activity", "/feed/sections/balances", "/feed/sections/alerts", "/feed/sections/recent-activity",
            ] {
                let body = try await sam.get(target).bodyText
                for alexsData in ["Everyday Checking", "Payment due tomorrow", "Blue Bottle Coffee"] {
                    #expect(!body.contains(alexsData), "\(target) shows \(alexsData)")
                }
            }
            #expect(try await sam.get("/feed/sections/balances").bodyText.contains("Student Checking"))
        }
    }

    @Test(
        "Another user's alerts and layouts cannot be written: by id guessing, by a replayed form, by a token for another session",
        arguments: Engine.allCases)
    func writes(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let router = try buildRouter(publicDirectory: FormHarness.publicDirectory, data: data, logger: LogCollector().logger)
            let alex = Browser(InProcessClient(router)), sam = Browser(InProcessClient(router))
            try await alex.signIn("alex", "alex-demo-1")
            try await sam.signIn("sam", "sam-demo-2")
            let alexPage = try await alex.get("/feed?stream=0&sections=alerts").bodyText
            let alexAlert = try await data.feed.alerts(of: UserID(1))[0]
            let alexDismiss = try #require(Browser.form("/feed/alerts/\(alexAlert.id)/dismiss", in: alexPage))
            let alexSave = try #require(Browser.form("/feed/layout", in: alexPage))

            // Sam replays Alex's forms, tokens and all: they are Alex's session's.
            #expect(try await sam.post("/feed/alerts/\(alexAlert.id)/dismiss", form: alexDismiss).status == .forbidden)
            #expect(try await sam.post("/feed/layout", form: alexSave).status == .forbidden)
            // Sam signs a token for Alex's alert path in Sam's own session (as if the key leaked): the alert is not Sam's.
            let samSession = SecretToken.hash(String(try #require(sam.cookie).drop { $0 != "=" }.dropFirst()))
            let forged = FormGuard(key: data.formKey).token(for: "/feed/alerts/\(alexAlert.id)/dismiss", subject: samSession)
            #expect(try await sam.post("/feed/alerts/\(alexAlert.id)/dismiss", form: [("token", forged)]).status == .notFound)
            // Sam's own restore and layout forms touch Sam's rows only.
            let samPage = try await sam.get("/feed?stream=0&sections=balances").bodyText
            #expect(try await sam.post("/feed/layout", form: try #require(Browser.form("/feed/layout", in: samPage))).status == .seeOther)

            #expect(try await data.feed.alerts(of: UserID(1)).allSatisfy { !$0.isDismissed })
            #expect(try await data.layouts.savedLayout(of: UserID(1), page: "feed").sections == nil)
            #expect(try await data.layouts.savedLayout(of: UserID(2), page: "feed").sections == ["balances"])
            #expect(Self.sections(try await alex.get("/feed?stream=0").bodyText) == ["balances", "alerts", "credit-score"])
        }
    }

    static func sections(_ html: String) -> [String] {
        html.matches(of: /<section class="section" id="section-[^"]*" data-section="([^"]*)"/).map { String($0.output.1) }
    }
}

@Suite("Cookies behind a proxy", .timeLimit(.minutes(1)))
struct ProxyCookieTests {
    func signInCookie(trusting proxies: Set<String>, headers: [String]) async throws -> String {
        let data = try AppData.memory()
        let router = try buildRouter(
            publicDirectory: FormHarness.publicDirectory, data: data, settings: AppSettings(accounts: AccountSettings(trustedProxies: proxies)),
            logger: LogCollector().logger)
        return try await withLiveServer(router) { server in
            let port = server.port
            return try await onOwnThread {
                let response = try RawHTTPClient(port: port).request(
                    "POST", "/signin", headers: ["Content-Type: application/x-www-form-urlencoded"] + headers, body: "name=alex&password=alex-demo-1")
                return response.header("Set-Cookie") ?? ""
            }
        }
    }

    @Test("Secure only when a declared proxy says the request came over HTTPS")
    func secure() async throws {
        let https = ["X-Forwarded-Proto: https"]
        #expect(try await signInCookie(trusting: ["127.0.0.1"], headers: https).contains("; Secure"))
        #expect(try await !signInCookie(trusting: [], headers: https).contains("Secure"), "an undeclared client's X-Forwarded-Proto means nothing")
        #expect(try await !signInCookie(trusting: ["10.0.0.1"], headers: https).contains("Secure"), "only from the declared address")
        #expect(try await !signInCookie(trusting: ["127.0.0.1"], headers: ["X-Forwarded-Proto: http"]).contains("Secure"))
    }
}
