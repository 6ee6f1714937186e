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

    @Test(
        "Signed in, the page is ready at once, and is what a store that waits gives",
        arguments: [
            "/feed", "/feed?stream=0", "/feed?stream=ooo", "/feed?add=recent-activity&add=checkup&checkup=retirement:no",
            "/feed/sections/alerts", "/api/feed/sections", "/api/feed/sections?pretty&remove=balances",
        ])
    func readyAtOnce(target: String) async throws {
        let (atHand, waiting) = try await Self.apps()
        guard case .now(let response) = try Self.reply(atHand, target) else {
            Issue.record("\(target) was left for a task")
            return
        }
        #expect(response.status == .ok)
        guard case .later = try Self.reply(waiting, target, headers: ["Cookie": atHand.cookie]) else {
            Issue.record("\(target) did not wait for a store that waits")
            return
        }
        let waited = try await waiting.get(target, headers: ["Cookie": atHand.cookie])
        #expect(waited.status == .ok)
        #expect(response.bodyBytes == waited.bodyBytes, "the same bytes either way: \(target)")
        #expect(response.headers["Content-Type"] == waited.headers["Content-Type"])
        #expect((response.timing != nil) == (waited.headers["Server-Timing"] != nil), "a page sent whole is timed either way")
    }

    @Test("A fragment needs only its own section's data at hand: the check-up, read from the query, never waits")
    func fragmentNeedsOnlyItsOwnData() async throws {
        let (_, waiting) = try await Self.apps()
        guard case .now(let checkup) = try Self.reply(waiting, "/feed/sections/checkup?checkup=retirement:no") else {
            Issue.record("the check-up waited for a store it does not read")
            return
        }
        #expect(checkup.status == .ok)
        #expect(checkup.bodyText.contains(#"data-section="checkup""#))
        guard case .later = try Self.reply(waiting, "/feed/sections/balances") else {
            Issue.record("the balances did not wait for their store")
            return
        }
    }

    @Test(
        "A bad request is refused at once, with the message a store that waits gets",
        arguments: [
            ("/feed?sections=balances,nope", 400), ("/feed?stream=sometimes", 400), ("/feed?add=checkup&checkup=retirement:maybe", 400),
            ("/feed/sections/nope", 404), ("/api/feed/sections?remove=nope", 400),
        ])
    func refusedAtOnce(target: String, status: Int) async throws {
        let (atHand, waiting) = try await Self.apps()
        guard case .now(let response) = try Self.reply(atHand, target) else {
            Issue.record("\(target) was left for a task")
            return
        }
        #expect(response.status.code == status)
        let waited = try await waiting.get(target, headers: ["Cookie": atHand.cookie])
        #expect(waited.status.code == status)
        #expect(response.bodyBytes == waited.bodyBytes, "the same refusal either way: \(target)")
    }

    @Test("A visitor who must sign in, or whose session must be written, is answered in a task, as before")
    func signInAndSessionWritesWait() async throws {
        let app = try await AppHarness()
        for target in ["/feed", "/feed/sections/alerts", "/api/feed/sections"] {
            for cookie in ["", "sectional_session=" + SecretToken.generate(), "sectional_session=not-a-token"] {
                guard case .later = try Self.reply(app, target, headers: cookie.isEmpty ? [:] : ["Cookie": cookie]) else {
                    Issue.record("\(target) with '\(cookie)' was answered without the accounts' async path")
                    continue
                }
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
        guard case .now(let response) = try Self.reply(app, "/api/feed/sections", headers: bearer) else {
            Issue.record("a valid token was left for a task")
            return
        }
        #expect(response.status == .ok)
        #expect(try await data.accounts.revokeAPIToken(id: id))
        for headers: HTTPHeaders in [bearer, ["Authorization": "Bearer " + SecretToken.generate()], ["Authorization": "Bearer nonsense"]] {
            guard case .later = try Self.reply(app, "/api/feed/sections", headers: headers) else {
                Issue.record("a token that is not valid was answered at once")
                continue
            }
            #expect(try await app.client.get("/api/feed/sections", headers: headers).status == .unauthorized)
        }
    }
}
