import Testing

@testable import Sectional

/// `DeadlineClock` sleeps as `ContinuousClock` does: to their instant, or until cancelled.
/// Each test has a timer of its own, so that other tests' sleeps are not in its heap.
@Suite("The deadline clock", .timeLimit(.minutes(1)))
struct DeadlineClockTests {
    @Test("A sleep ends at its instant, never before, whatever order the sleeps began in")
    func endsAtItsInstant() async throws {
        let clock = DeadlineClock(timer: DeadlineTimer())
        let start = clock.now
        let times = try await withThrowingTaskGroup(of: (Int, ContinuousClock.Instant).self) { group in
            for milliseconds in [60, 20, 40, 20] {
                group.addTask {
                    try await clock.sleep(until: start.advanced(by: .milliseconds(milliseconds)))
                    return (milliseconds, clock.now)
                }
            }
            return try await group.reduce(into: [Int: ContinuousClock.Instant]()) { $0[$1.0] = $1.1 }
        }
        #expect(times.keys.sorted() == [20, 40, 60])
        for (milliseconds, instant) in times {
            #expect(instant >= start.advanced(by: .milliseconds(milliseconds)), "woke \(start.duration(to: instant)) after the start")
        }
    }

    @Test("An instant already past returns at once")
    func pastInstant() async throws {
        let clock = DeadlineClock(timer: DeadlineTimer())
        try await clock.sleep(until: clock.now.advanced(by: .seconds(-1)))
        try await clock.sleep(for: .zero)
    }

    @Test("Cancelled, a sleep of an hour ends at once with CancellationError")
    func cancelledWhileAsleep() async throws {
        let (_, sleep) = try await hourLongSleep()
        sleep.cancel()
        await #expect(throws: CancellationError.self) { try await sleep.value }
    }

    @Test("In a task already cancelled, a sleep throws at once and holds nothing")
    func cancelledBefore() async throws {
        let timer = DeadlineTimer()
        let clock = DeadlineClock(timer: timer)
        let sleep = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await clock.sleep(for: .seconds(3600))
        }
        await #expect(throws: CancellationError.self) { try await sleep.value }
        #expect(timer.heldCount == 0)
    }

    @Test("A sleep shorter than the one the timer waits for still ends on time")
    func earlierInstantWakesTheTimer() async throws {
        let (clock, long) = try await hourLongSleep()
        // Would hang until the time limit if the timer kept waiting for the hour.
        try await clock.sleep(for: .milliseconds(20))
        long.cancel()
        _ = await long.result
    }

    @Test("Cancelled sleeps do not stay in the timer's heap")
    func cancelledAreDropped() async throws {
        let timer = DeadlineTimer()
        let clock = DeadlineClock(timer: timer)
        // Three seconds ahead: all hundred are held before the first instant passes, even on a busy machine
        // (at 50 ms, and once at a second with the whole suite running, one that fired before the last was
        // held kept the count from ever reaching 100).
        let sleeps = (0..<100).map { index in
            Task { try await clock.sleep(for: .milliseconds(3_000 + index)) }
        }
        try await waitUntil { timer.heldCount == 100 }
        for sleep in sleeps { sleep.cancel() }
        for sleep in sleeps {
            await #expect(throws: CancellationError.self) { try await sleep.value }
        }
        // Past all their instants: the timer has woken and dropped every cancelled one.
        try await clock.sleep(for: .milliseconds(3_200))
        try await waitUntil { timer.heldCount == 0 }
    }

    @Test("Loads measure their deadlines on it unless given another clock")
    func isTheDefault() {
        // A page cut at its deadline on it, on a database, is in DataTests (a query that never ends).
        #expect(LoadOptions().clock is DeadlineClock)
        #expect(LoadOptions(clock: ContinuousClock()).clock is ContinuousClock)
    }

    @Test("The heap gives back its instants earliest first, however they went in")
    func heapOrder() {
        var generator = SystemRandomNumberGenerator()
        let base = ContinuousClock.now
        let offsets = (0..<500).map { _ in Int.random(in: 0..<200, using: &generator) }
        var heap = DeadlineHeap<Int>()
        for (index, offset) in offsets.enumerated() { heap.insert(index, at: base.advanced(by: .milliseconds(offset))) }
        var out: [Int] = []
        while let first = heap.first {
            out.append(offsets[first.element])
            heap.removeFirst()
        }
        #expect(out == offsets.sorted())
    }

    /// A sleep of an hour on a timer of its own, once the timer's thread waits for it.
    private func hourLongSleep() async throws -> (DeadlineClock, Task<Void, any Error>) {
        let timer = DeadlineTimer()
        let clock = DeadlineClock(timer: timer)
        let sleep = Task { try await clock.sleep(for: .seconds(3600)) }
        try await waitUntil { timer.waitingUntil != nil }
        return (clock, sleep)
    }

    /// Polls `condition` every millisecond: for a sleep to reach the timer's heap.
    private func waitUntil(_ condition: () -> Bool) async throws {
        while !condition() { try await Task.sleep(for: .milliseconds(1)) }
    }
}
