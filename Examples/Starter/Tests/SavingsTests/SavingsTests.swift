import Foundation
import HTTPServer
import SectionalAccounts
import SectionalSQL
import SectionalSecurity
import SectionalServer
import SectionalTesting
import Synchronization
import Testing

@testable import Savings

/// The app on a database file of its own, with two users: alex, saving for
/// a bicycle, and sam, for a trip.
private final class TestApp: Sendable {
    let path: String
    let pool: ConnectionPool
    let live: LiveHub
    let router: Router
    let alex: User
    let sam: User
    /// What the app signs its forms with: a test signs one too, as only the server could.
    let forms: FormGuard

    /// The clock the limit on posts counts by: it moves only when a test moves it.
    let clock = PostClock()

    init(limitPerUser: Int = 8) async throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("savings-\(UUID().uuidString).sqlite").path
        let (pool, formKey) = try SavingsApp.openDatabase(path)
        self.pool = pool
        live = LiveHub(limitPerUser: limitPerUser)
        let accounts = SQLAccountStore(pool: pool)
        // The cheapest hash: each sign-in checks it, and the tests sign in often.
        let hasher = PasswordHasher(.minimal)
        alex = try #require(try await accounts.addUser(name: "alex", displayName: "Alex", passwordHash: try hasher.hash("alex-password")))
        sam = try #require(try await accounts.addUser(name: "sam", displayName: "Sam", passwordHash: try hasher.hash("sam-password")))
        let store = SavingsStore(pool: pool)
        try await store.addGoal("Bicycle", targetCents: 90_000, of: alex.id)
        try await store.addGoal("Trip to Lisbon", targetCents: 150_000, of: sam.id)
        forms = FormGuard(key: formKey)
        router = try SavingsApp.router(
            pool: pool, live: live, formKey: formKey, publicDirectory: Self.publicDirectory, logger: LogCollector().logger,
            now: clock.read)
    }

    deinit {
        pool.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    static let publicDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Public").path

    /// The action and token of the first form posting to `action` in `page`.
    static func token(of action: String, in page: String) throws -> String {
        let form = try #require(page.components(separatedBy: #"action="\#(action)""#).dropFirst().first)
        return try #require(form.components(separatedBy: #"name="token" value=""#).dropFirst().first?.prefix(32)).description
    }
}

/// A time that moves only when a test moves it.
private final class PostClock: Sendable {
    private let time = Mutex(Duration.seconds(1000))
    @Sendable func read() -> Duration { time.withLock { $0 } }
    func advance(by duration: Duration) { time.withLock { $0 += duration } }
}

@Suite("The starter's goals page")
struct SavingsTests {
    @Test("Nobody signed in is sent to sign in from the page and its fragments; the JSON and the live stream get a 401")
    func privateByDefault() async throws {
        let app = try await TestApp()
        let client = InProcessClient(app.router)
        for path in ["/goals", "/goals/sections/goals", "/goals/sections/deposits"] {
            let anonymous = try await client.get(path)
            #expect(anonymous.status == .seeOther, "\(path)")
            #expect(anonymous.headers["Location"]?.hasPrefix("/signin?next=") == true, "\(path)")
            #expect(!anonymous.bodyText.contains("Bicycle"), "\(path)")
        }
        for path in ["/api/goals/sections", "/goals/live"] {
            let script = try await client.get(path)
            #expect(script.status == .unauthorized, "\(path)")
            #expect(!script.bodyText.contains("Bicycle"), "\(path)")
        }
    }

    @Test("Each user sees their own goals only, on the page and its fragments; the JSON describes the same sections")
    func eachTheirOwn() async throws {
        let app = try await TestApp()
        let client = InProcessClient(app.router)
        let alex = try await client.signIn("alex", "alex-password")
        let sam = try await client.signIn("sam", "sam-password")
        let alexs = try await client.get("/goals?stream=0", headers: ["Cookie": alex]).bodyText
        #expect(alexs.contains("Bicycle") && alexs.contains("$0.00 of $900.00"))
        #expect(!alexs.contains("Lisbon"))
        let sams = try await client.get("/goals/sections/goals", headers: ["Cookie": sam]).bodyText
        #expect(sams.contains("Trip to Lisbon") && !sams.contains("Bicycle"))
        let json = try await client.get("/api/goals/sections", headers: ["Cookie": sam])
        #expect(json.status == .ok && json.bodyText.contains(#""id":"goals""#))
        #expect(try await client.postSignIn("alex", "wrong").status == .unauthorized)
    }

    @Test("Signing out through the banner's form ends the session: the form says so, and the page sends the old cookie to sign in")
    func signOut() async throws {
        let app = try await TestApp()
        let client = InProcessClient(app.router)
        let alex = try await client.signIn("alex", "alex-password")
        let page = try await client.get("/goals?stream=0", headers: ["Cookie": alex]).bodyText
        let out = try await client.post(
            SignInRoutes.signOutPath, form: [("token", try TestApp.token(of: SignInRoutes.signOutPath, in: page))], headers: ["Cookie": alex])
        #expect(out.status == .seeOther)
        let told = try await client.get(try #require(out.headers["Location"]))
        #expect(told.bodyText.contains("You are signed out."))
        let after = try await client.get("/goals", headers: ["Cookie": alex])
        #expect(after.status == .seeOther && after.headers["Location"]?.hasPrefix("/signin") == true)
    }

    @Test("A deposit through its form moves the goal and lists the deposit; another user's goal or no token changes nothing")
    func deposit() async throws {
        let app = try await TestApp()
        let client = InProcessClient(app.router)
        let alex = try await client.signIn("alex", "alex-password")
        let page = try await client.get("/goals?stream=0", headers: ["Cookie": alex]).bodyText
        let action = SavingsApp.depositPath(1)
        let token = try TestApp.token(of: action, in: page)
        let posted = try await client.post(action, form: [("token", token)], headers: ["Cookie": alex])
        #expect(posted.status == .seeOther)
        let after = try await client.get("/goals?stream=0", headers: ["Cookie": alex]).bodyText
        #expect(after.contains("$50.00 of $900.00"))
        #expect(after.contains("$50.00 for Bicycle"))

        let samsGoal = SavingsApp.depositPath(2)
        let borrowed = try await client.post(samsGoal, form: [("token", token)], headers: ["Cookie": alex])
        #expect(borrowed.status == .forbidden, "a token signs one form: this one is not sam's goal's")
        let session = SecretToken.hash(String(alex.dropFirst("sectional_session=".count)))
        let signed = app.forms.token(for: samsGoal, subject: session)
        let theirs = try await client.post(samsGoal, form: [("token", signed)], headers: ["Cookie": alex])
        #expect(theirs.status == .notFound, "signed or not, sam's goal is not alex's to fill")
        let unsigned = try await client.post(action, form: [], headers: ["Cookie": alex])
        #expect(unsigned.status == .forbidden)
        let anonymous = try await client.post(action, form: [("token", token)])
        #expect(anonymous.status == .seeOther && anonymous.headers["Location"]?.hasPrefix("/signin") == true)
        #expect(try await app.pool.query("SELECT saved_cents FROM goals ORDER BY id").map { try $0.int(0) } == [5_000, 0])
    }

    @Test("Past thirty form posts a minute from one address, a post gets 429 with Retry-After and changes nothing")
    func postLimit() async throws {
        let app = try await TestApp()
        let client = InProcessClient(app.router)
        let alex = try await client.signIn("alex", "alex-password")  // the first post
        let page = try await client.get("/goals?stream=0", headers: ["Cookie": alex]).bodyText
        let action = SavingsApp.depositPath(1)
        let token = try TestApp.token(of: action, in: page)
        for _ in 2...30 {
            #expect(try await client.post(action, form: [("token", "forged")], headers: ["Cookie": alex]).status == .forbidden)
        }
        let refused = try await client.post(action, form: [("token", token)], headers: ["Cookie": alex])
        #expect(refused.status == .tooManyRequests)
        #expect(refused.headers["Retry-After"] == "2")
        #expect(try await app.pool.query("SELECT saved_cents FROM goals ORDER BY id").map { try $0.int(0) } == [0, 0])
        #expect(try await client.get("/goals?stream=0", headers: ["Cookie": alex]).status == .ok, "reading is not limited")
        // A post comes back every two seconds.
        app.clock.advance(by: .seconds(2))
        #expect(try await client.post(action, form: [("token", token)], headers: ["Cookie": alex]).status == .seeOther)
    }

    @Test("An open page hears of a deposit made elsewhere: the changed cards arrive on its live stream")
    func liveDeposit() async throws {
        let app = try await TestApp()
        try await withLiveServer(app.router) { server in
            let client = LiveClient(port: server.port)
            let alex = try await client.signIn("alex", "alex-password")
            let stream = try LiveStreamClient(port: server.port, path: "/goals/live", cookie: alex)
            #expect(try await stream.waitFor("retry: 1000"))
            let page = try await client.get("/goals?stream=0", headers: ["Cookie": alex]).bodyText
            let action = SavingsApp.depositPath(1)
            _ = try await client.post(action, form: [("token", try TestApp.token(of: action, in: page))], headers: ["Cookie": alex])
            #expect(try await stream.waitFor("$50.00 of $900.00"), "the goals card")
            #expect(try await stream.waitFor("$50.00 for Bicycle"), "the deposits card")
        }
    }

    @Test("The live-stream limit is each signed-in user's: a user's new stream ends their oldest, never another user's")
    func liveLimitPerUser() async throws {
        let app = try await TestApp(limitPerUser: 1)
        try await withLiveServer(app.router) { server in
            let client = LiveClient(port: server.port)
            let alex = try await client.signIn("alex", "alex-password")
            let sam = try await client.signIn("sam", "sam-password")
            let alexsFirst = try LiveStreamClient(port: server.port, path: "/goals/live", cookie: alex)
            #expect(try await alexsFirst.waitFor("retry: 1000"))
            let samsOnly = try LiveStreamClient(port: server.port, path: "/goals/live", cookie: sam)
            #expect(try await samsOnly.waitFor("retry: 1000"))
            let alexsSecond = try LiveStreamClient(port: server.port, path: "/goals/live", cookie: alex)
            #expect(try await alexsSecond.waitFor("retry: 1000"))
            #expect(try await alexsFirst.waitFor(LiveStreamClient.end), "alex's second stream ended his first")
            #expect(app.live.openStreams == 2, "sam's stream is still open beside alex's second")
        }
    }
}
