import SectionalTesting
import Testing

@testable import FeedApp

@Suite("The financial check-up")
struct CheckupTests {
    let app: AppHarness
    init() async throws { app = try await AppHarness() }

    @Test("The quiz is a plain GET form that keeps the page's composition")
    func form() async throws {
        let body = try await app.get("/feed?sections=alerts,checkup").bodyText
        #expect(body.contains(#"<form class="checkup" method="get" action="/feed">"#))
        #expect(body.contains(#"<input type="hidden" name="sections" value="alerts,checkup">"#))
        #expect(body.matches(of: /<select id="checkup-[a-z-]+" name="checkup">/).count == 3)
        #expect(!body.contains("checkup-result"))
    }

    @Test("Answering every question shows the score and tips for the weak answers")
    func result() async throws {
        let body = try await app.get(
            "/feed?sections=checkup&checkup=emergency-fund:none&checkup=retirement:max&checkup=card-balance:full"
        ).bodyText
        #expect(body.contains("Solid footing: 6 of 9 points."))
        #expect(body.contains("Build an emergency fund"))
        #expect(!body.contains("employer&#39;s full match"))
        #expect(body.contains(#"<option value="retirement:max" selected>"#))
    }

    @Test(
        "The result's box says what the score means: green for a good one only",
        arguments: [
            ("emergency-fund:6-plus&checkup=retirement:max&checkup=card-balance:full", "good", "Solid footing: 9 of 9"),
            ("emergency-fund:1-2&checkup=retirement:match&checkup=card-balance:sometimes", "fair", "On your way: 4 of 9"),
            ("emergency-fund:none&checkup=retirement:no&checkup=card-balance:carry", "poor", "Room to grow: 0 of 9"),
        ])
    func resultTone(answers: String, tone: String, verdict: String) async throws {
        let body = try await app.get("/feed?sections=checkup&checkup=" + answers).bodyText
        #expect(body.contains(#"<div class="checkup-result \#(tone)" role="status"><p><strong>\#(verdict) points.</strong>"#))
    }

    @Test(
        "Scores map to verdicts",
        arguments: [
            (["emergency-fund": "6-plus", "retirement": "max", "card-balance": "full"], 9),
            (["emergency-fund": "none", "retirement": "no", "card-balance": "carry"], 0),
            (["emergency-fund": "1-2", "retirement": "match", "card-balance": "sometimes"], 4),
        ])
    func score(answers: [String: String], points: Int) {
        #expect(CheckupQuiz.standard.score(answers) == (points, 9))
    }
}
