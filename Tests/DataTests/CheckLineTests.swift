import SectionalSecurity
import SectionalTesting
import Synchronization
import Testing

/// The line password checks wait in: one account's sign-ins must not turn
/// anyone else's away (a client signing in eight at a time once made 13 of
/// 29 sign-ins of another person fail with 503).
@Suite("Password checks share the line fairly", .timeLimit(.minutes(1)))
struct CheckLineTests {
    /// Who was let in, in order.
    final class Entries: Sendable {
        private let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// Waits, yielding, until `line` has `count` attempts waiting.
    func waiting(_ line: CheckLine, reach count: Int) async {
        while line.waitingCount < count { await Task.yield() }
    }

    @Test("When a check ends, the account that had no turn goes before the busy account's next attempts")
    func roundRobin() async throws {
        let line = CheckLine(capacity: 1, maximumWait: .seconds(60), clock: TestClock())
        let entries = Entries()
        #expect(await line.enter(account: "hostile-b", client: "10.0.0.1"))
        let busy = (0..<2).map { _ in
            Task {
                if await line.enter(account: "hostile-b", client: "10.0.0.1") { entries.add("hostile-b") }
            }
        }
        await waiting(line, reach: 2)
        let alex = Task {
            if await line.enter(account: "alex", client: "10.0.0.1") { entries.add("alex") }
        }
        await waiting(line, reach: 3)
        line.leave()
        await alex.value
        #expect(entries.all == ["alex"], "alex, from the same address, goes first")
        line.leave()
        line.leave()
        for task in busy { await task.value }
        #expect(entries.all == ["alex", "hostile-b", "hostile-b"])
        line.leave()
    }

    @Test("An account with two attempts waiting is refused at once, and only it; a client with eight too")
    func limits() async throws {
        let line = CheckLine(capacity: 1, maximumWait: .seconds(60), clock: TestClock())
        #expect(await line.enter(account: "b", client: "10.0.0.1"))
        let held = (0..<2).map { _ in Task { await line.enter(account: "b", client: "10.0.0.1") } }
        await waiting(line, reach: 2)
        #expect(await line.enter(account: "b", client: "10.0.0.9") == false, "a third for the account, from anywhere")
        let others = (0..<6).map { index in Task { await line.enter(account: "a\(index)", client: "10.0.0.1") } }
        await waiting(line, reach: 8)
        #expect(await line.enter(account: "c", client: "10.0.0.1") == false, "a ninth for the address")
        let elsewhere = Task { await line.enter(account: "c", client: "10.0.0.2") }
        await waiting(line, reach: 9)
        for _ in 0..<10 { line.leave() }
        for task in held + others + [elsewhere] { #expect(await task.value) }
    }

    @Test("An attempt that waits past the maximum is refused and takes no turn")
    func waitedTooLong() async throws {
        let clock = TestClock()
        let (line, late) = await oneCheckAndOneWaiting(maximumWait: .seconds(1), clock: clock)
        await clock.advance(by: .seconds(1), whenSleepersReach: 1)
        #expect(await late.value == false)
        #expect(line.waitingCount == 0)
        line.leave()
        #expect(await line.enter(account: "c", client: "10.0.0.3"), "the one check's room is free again")
        line.leave()
    }

    @Test("A turn that comes before the maximum wait stops the attempt's timer: nothing is left asleep")
    func turnStopsTheTimer() async throws {
        let clock = TestClock()
        let (line, waiting) = await oneCheckAndOneWaiting(maximumWait: .seconds(60), clock: clock)
        while clock.sleeperCount < 1 { await Task.yield() }  // its timer asleep
        line.leave()
        #expect(clock.sleeperCount == 0, "the timer stopped as the turn came")
        #expect(await waiting.value)
        line.leave()
    }

    /// A line of one check, taken by account `a`, with account `b`'s attempt waiting behind it.
    private func oneCheckAndOneWaiting(maximumWait: Duration, clock: TestClock) async -> (CheckLine, Task<Bool, Never>) {
        let line = CheckLine(capacity: 1, maximumWait: maximumWait, clock: clock)
        #expect(await line.enter(account: "a", client: "10.0.0.1"))
        return (line, Task { await line.enter(account: "b", client: "10.0.0.2") })
    }
}
