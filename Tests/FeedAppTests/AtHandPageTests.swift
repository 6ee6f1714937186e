import HTTPServer
import SectionalSecurity
import SectionalTesting
import Testing

@testable import FeedApp

/// On data in memory a page's visitor, layout and sections are all at
/// hand: the router answers at once (`Reply.now`), with no task, exactly
/// what the same page answers when its store must be waited for.
@Suite("Pages on data in memory are answered at once")
struct AtHandPageTests {
    /// Two apps on the same accounts, layouts and form key: one reads the
    /// feed from memory, the other from a store that must be waited for.
    private static func apps() async throws -> (atHand: AppHarness, waiting: AppHarness) {
        let data = AppData.memory()
        return (try await AppHarness(data: data), try await AppHarness(data: data, feedStore: ControlledFeedStore()))
    }

    private static func reply(_ app: AppHarness, _ target: String, headers: HTTPHeaders? = nil) throws -> Reply {
        app.router.reply(to: try Request(method: .get, target: target, headers: headers ?? ["Cookie": app.cookie]))
    }

    /// The answer the router gave at once, signed in as `app`'s visitor unless `headers` say otherwise; `nil`, recorded, when it left the request for a task.
    private static func answerAtOnce(
        _ app: AppHarness, _ target: String, headers: HTTPHeaders? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Response? {
        guard case .now(let response) = try reply(app, target, headers: headers) else {
            Issue.record("\(target) was left for a task", sourceLocation: sourceLocation)
            return nil
        }
        return response
    }

    /// Whether the router left the request for a task; recorded when it answered at once.
    private static func leftForATask(
        _ app: AppHarness, _ target: String, headers: HTTPHeaders? = nil, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Bool {
        guard case .later = try reply(app, target, headers: headers) else {
            Issue.record("\(target) was answered at once", sourceLocation: sourceLocation)
            return false
        }
        return true
    }

    /// `target` answered at once by `atHand` and in a task by `waiting`, for the same visitor: the same status and bytes.
    private static func expectSameAnswer(_ target: String, atHand: AppHarness, waiting: AppHarness) async throws {
        let cookie: HTTPHeaders = ["Cookie": atHand.cookie]
        guard let response = try answerAtOnce(atHand, target), try leftForATask(waiting, target, headers: cookie) else { return }
        let waited = try await waiting.get(target, headers: cookie)
        let waitedAnswer = try await waiting.client.answer(.get, target, headers: cookie)
        #expect(response.logUser == waitedAnswer.logUser, "the access log names the same visitor")
        #expect(response.route == waitedAnswer.route, "metrics count the same route")
        #expect(response.headers["Sectional-Degraded"] == waited.headers["Sectional-Degraded"])
        #expect(response.status == waited.status)
        #expect(response.bodyBytes == waited.bodyBytes, "the same bytes either way: \(target)")
        #expect(response.headers["Content-Type"] == waited.headers["Content-Type"])
        #expect((response.timing != nil) == (waited.headers["Server-Timing"] != nil), "a page sent whole is timed either way")
    }

    @Test(
        "Signed in, the page is ready at once, and is what a store that waits gives",
        arguments: [
            "/feed", "/feed?stream=0", "/feed?stream=ooo", "/feed?add=recent-activity&add=checkup&checkup=retirement:no",
            "/feed/sections/alerts", "/api/feed/sections", "/api/feed/sections?pretty&remove=balances",
        ])
    func readyAtOnce(target: String) async throws {
        let (atHand, waiting) = try await Self.apps()
        #expect(try Self.answerAtOnce(atHand, target)?.status == .ok)
        try await Self.expectSameAnswer(target, atHand: atHand, waiting: waiting)
    }

    @Test(
        "The day page too: ready at once in memory, and what a day store that waits gives",
        arguments: [
            "/day?date=2026-11-03", "/day?date=2024-02-29&remove=calendar&stream=0", "/day?date=2026-11-04&stream=ooo",
            "/day/sections/sleep?date=2026-11-04", "/api/day/sections?date=2026-11-03",
        ])
    func dayReadyAtOnce(target: String) async throws {
        let data = AppData.memory()
        let atHand = try await AppHarness(data: data)
        let waiting = try await AppHarness(
            data: AppData(
                feed: data.feed, day: WaitingDayStore(), layouts: data.layouts, accounts: data.accounts, users: data.users,
                formKey: data.formKey, pool: nil, hasher: data.hasher))
        #expect(try Self.answerAtOnce(atHand, target)?.status == .ok)
        try await Self.expectSameAnswer(target, atHand: atHand, waiting: waiting)
        #expect(try Self.answerAtOnce(atHand, "/day?date=2026-13-40")?.status == .badRequest, "a bad date is refused at once")
    }

    @Test("A fragment needs only its own section's data at hand: the check-up, read from the query, never waits")
    func fragmentNeedsOnlyItsOwnData() async throws {
        let (_, waiting) = try await Self.apps()
        let checkup = try Self.answerAtOnce(waiting, "/feed/sections/checkup?checkup=retirement:no")
        #expect(checkup?.status == .ok)
        #expect(checkup?.bodyText.contains(#"data-section="checkup""#) == true)
        #expect(try Self.leftForATask(waiting, "/feed/sections/balances"), "the balances wait for their store")
    }

    @Test(
        "A bad request is refused at once, with the message a store that waits gets",
        arguments: [
            ("/feed?sections=balances,nope", 400), ("/feed?stream=sometimes", 400), ("/feed?add=checkup&checkup=retirement:maybe", 400),
            ("/feed/sections/nope", 404), ("/api/feed/sections?remove=nope", 400),
        ])
    func refusedAtOnce(target: String, status: Int) async throws {
        let (atHand, waiting) = try await Self.apps()
        #expect(try Self.answerAtOnce(atHand, target)?.status.code == status)
        let waited = try await waiting.get(target, headers: ["Cookie": atHand.cookie])
        #expect(waited.status.code == status)
        #expect(try Self.answerAtOnce(atHand, target)?.bodyBytes == waited.bodyBytes, "the same refusal either way: \(target)")
    }

    @Test("A visitor who must sign in, or whose session must be written, is answered in a task, as before")
    func signInAndSessionWritesWait() async throws {
        let app = try await AppHarness()
        // A bad query too: whoever has not signed in is sent to sign in first.
        for target in ["/feed", "/feed/sections/alerts", "/api/feed/sections", "/feed?sections=nope"] {
            for cookie in ["", "sectional_session=" + SecretToken.generate(), "sectional_session=not-a-token"] {
                guard try Self.leftForATask(app, target, headers: cookie.isEmpty ? [:] : ["Cookie": cookie]) else { continue }
                let answer = try await app.client.get(target, headers: cookie.isEmpty ? [:] : ["Cookie": cookie])
                #expect(answer.status == (target.hasPrefix("/api/") ? .unauthorized : .seeOther), "\(target) with '\(cookie)'")
            }
        }
    }

    @Test("An API token read from memory answers at once; a revoked or unknown one is a 401")
    func apiTokens() async throws {
        let data = AppData.memory()
        let app = try await AppHarness(data: data)
        let token = SecretToken.generate()
        let id = try await data.accounts.createAPIToken(tokenHash: SecretToken.hash(token), user: UserID(1), label: "test", now: 0)
        let bearer: HTTPHeaders = ["Authorization": "Bearer " + token]
        #expect(try Self.answerAtOnce(app, "/api/feed/sections", headers: bearer)?.status == .ok)
        #expect(try await data.accounts.revokeAPIToken(id: id))
        for headers: HTTPHeaders in [bearer, ["Authorization": "Bearer " + SecretToken.generate()], ["Authorization": "Bearer nonsense"]] {
            guard try Self.leftForATask(app, "/api/feed/sections", headers: headers) else { continue }
            #expect(try await app.client.get("/api/feed/sections", headers: headers).status == .unauthorized)
        }
    }
}

/// The seed's day data, read as a database is: through the async reads only.
private struct WaitingDayStore: DayStore {
    let memory = MemoryStore()
    func summary(of user: UserID, on day: Day) async throws -> DaySummary? { memory.summary(of: user, on: day) }
    func sleep(of user: UserID, on day: Day) async throws -> Night? { memory.sleep(of: user, on: day) }
    func workout(of user: UserID, on day: Day) async throws -> Workout? { memory.workout(of: user, on: day) }
}
