/// The thread that cuts loads past their deadlines on ``DeadlineClock``:
/// each round of a page's loads is registered while it runs, and the thread
/// looks over the registered rounds every `tick`.
///
/// A page's loads nearly always end within microseconds, long before any
/// deadline, so a round costs a lock and a slot in an array, not a timer of
/// its own (a timer a round filled a heap with cancelled timers, a second's
/// worth of pages). A deadline is met within one tick. The thread sleeps once
/// nothing has been registered for `idleAfter`, and the next registration
/// wakes it; under steady load it only ticks.
final class LoadWatchdog: @unchecked Sendable {
    static let shared = LoadWatchdog(tick: .milliseconds(10))

    private struct Round {
        let cutter: LoadCutter
        let start: ContinuousClock.Instant
    }

    private let tick: Duration
    private let idleAfter: Duration
    /// Guards everything below; the thread waits on it. What it guards is
    /// not checked for overlapping access at run time (every round of every
    /// page registers and unregisters): no access spans a call that reaches it again.
    private let condition = MonotonicCondition()
    @exclusivity(unchecked) private var rounds: [Round] = []
    @exclusivity(unchecked) private var started = false
    /// Whether the thread waits for a registration, not a tick.
    @exclusivity(unchecked) private var isIdle = false
    /// Whether a round registered since the last tick: most end long before one.
    @exclusivity(unchecked) private var registeredSinceTick = false

    init(tick: Duration, idleAfter: Duration = .seconds(1)) {
        self.tick = tick
        self.idleAfter = idleAfter
    }

    /// Watches `cutter`'s loads, whose round started at `start`, until `unregister`.
    func register(_ cutter: LoadCutter, startedAt start: ContinuousClock.Instant) {
        condition.lock()
        cutter.watchIndex = rounds.count
        rounds.append(Round(cutter: cutter, start: start))
        registeredSinceTick = true
        if !started {
            started = true
            // The thread keeps the watchdog for good: it never ends.
            MonotonicCondition.startThread { [self] in run() }
        }
        if isIdle {
            isIdle = false
            condition.signal()
        }
        condition.unlock()
    }

    /// Stops watching `cutter`: its loads have all ended.
    func unregister(_ cutter: LoadCutter) {
        condition.lock()
        let index = cutter.watchIndex
        let last = rounds.removeLast()
        if index < rounds.count {
            rounds[index] = last
            last.cutter.watchIndex = index
        }
        condition.unlock()
    }

    /// The thread's life: every tick, cut what is overdue; asleep while nothing is watched.
    private func run() -> Never {
        var lastWatched = ContinuousClock.now
        condition.lock()
        while true {
            if rounds.isEmpty && lastWatched.duration(to: .now) >= idleAfter {
                isIdle = true
                while isIdle { condition.wait() }
            } else {
                condition.wait(for: tick)
            }
            let now = ContinuousClock.now
            if registeredSinceTick || !rounds.isEmpty { lastWatched = now }
            registeredSinceTick = false
            // Cut without the lock: cancelling runs the loads' cancellation
            // handlers, which must not hold up every page's registration. A
            // round ended meanwhile is safe to look at: its cutter cuts only
            // loads still running, under its own lock.
            let watched = rounds
            condition.unlock()
            for round in watched { _ = round.cutter.cutOverdue(at: round.start.duration(to: now)) }
            condition.lock()
        }
    }
}
