import HTTPServer
import Sectional
import SectionalServer
import SectionalTesting
import Testing

/// Deadlines on the page's injected clock: a test moves time by hand, so
/// nothing here sleeps.
@Suite("Deadlines on an injected clock", .timeLimit(.minutes(1)))
struct DeadlineClockTests {
    @Test("A section slower than its deadline falls back; the page is degraded, not failed")
    func deadlineCutsASlowSection() async throws {
        let clock = TestClock()
        let router = NotesApp.router(clock: clock, waitDelay: .seconds(5), timeout: .seconds(1))
        async let answer = InProcessClient(router).get("/notes?stream=0")
        // The section's own sleep and the deadline's timer both wait on the clock.
        await clock.advance(by: .seconds(1), whenSleepersReach: 2)
        let response = try await answer
        #expect(response.status == .ok)
        #expect(response.headers["Sectional-Degraded"] == "latest")
        #expect(response.bodyText.contains(#"data-load="timed-out""#))
        #expect(response.bodyText.contains("Buy &lt;milk&gt;"), "the quick sibling is intact")
    }

    @Test("A section within its deadline shows its data once the clock reaches it")
    func withinDeadline() async throws {
        let clock = TestClock()
        let router = NotesApp.router(clock: clock, waitDelay: .milliseconds(500), timeout: .seconds(1))
        async let answer = InProcessClient(router).get("/api/notes/sections")
        await clock.advance(by: .milliseconds(500), whenSleepersReach: 2)
        let response = try await answer
        #expect(response.bodyText.contains(#""id":"latest","position":2,"remove":"/notes?sections=pinned","status":"ok""#))
    }
}
