/// `ContinuousClock`, with sleeps made for deadlines: nearly all of them
/// are cancelled long before they end, and starting or cancelling one
/// takes two short locks and, while other sleeps are held, no system call.
///
/// A `ContinuousClock` sleep arms a timer of Dispatch's and cancels it
/// again, each a wake-up of Dispatch's timer thread: on a page whose
/// sections read a database, those cost about as much CPU as the rest of
/// the page. Here one thread of the process's own holds every sleep in a
/// heap and wakes only when the earliest one still waiting is due.
///
/// The default clock of ``LoadOptions``. A sleep ends at its instant or
/// soon after (its `tolerance` is not used), or at once with
/// `CancellationError` when its task is cancelled, as `Task.sleep` does.
public struct DeadlineClock: Clock {
    /// `ContinuousClock`'s instants: the two clocks read the same.
    public typealias Instant = ContinuousClock.Instant

    private let timer: DeadlineTimer

    /// The clock, its sleeps held by the process's one timer thread.
    public init() { timer = .shared }

    /// A clock whose sleeps another timer holds (a test's own).
    init(timer: DeadlineTimer) { self.timer = timer }

    /// The instant now, as `ContinuousClock` reads it.
    public var now: Instant { .now }

    /// `ContinuousClock`'s resolution.
    public var minimumResolution: Duration { ContinuousClock().minimumResolution }

    /// Suspends until `deadline`; throws `CancellationError` at once when the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        guard deadline > .now else { return }
        let sleeper = DeadlineTimer.Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                timer.add(sleeper, until: deadline)
                sleeper.wait(with: continuation)
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}
