import Synchronization

/// The line for password checks, shared fairly.
///
/// At most `capacity` checks run at once. The rest wait, and when a check
/// ends the account that had a turn least recently goes next, so one
/// account's sign-ins (a script's, say) cannot keep anyone else's from
/// being checked: they wait behind one check at most. An account with
/// `waitingPerAccount` attempts already waiting is refused at once, a client
/// (an address, which many people may share) with `waitingPerClient`, and
/// an attempt that waited `maximumWait` is refused too: a flood costs
/// neither memory nor threads.
public final class CheckLine: Sendable {
    private struct Waiter {
        let id: Int
        let account: String
        let client: String
        let continuation: CheckedContinuation<Bool, Never>
        /// Its timer of `maximumWait`, stopped when its turn comes first.
        var timeout: Task<Void, Never>?
    }

    private struct State {
        var running = 0
        var waiting: [Waiter] = []
        var nextID = 0
        /// The turn each account with an attempt in the line last had (a count, not a time).
        var lastTurn: [String: Int] = [:]
        var turns = 0

        mutating func start(_ account: String) {
            running += 1
            turns += 1
            lastTurn[account] = turns
        }

        /// The waiter whose account had a turn least recently (never, first); the longest waiting among equals.
        mutating func takeNext() -> Waiter? {
            guard !waiting.isEmpty else { return nil }
            var chosen = 0
            for index in waiting.indices.dropFirst()
            where lastTurn[waiting[index].account, default: 0] < lastTurn[waiting[chosen].account, default: 0] {
                chosen = index
            }
            return waiting.remove(at: chosen)
        }

        /// Forgets the turns of accounts no longer in the line, so a spray of names leaves nothing behind.
        mutating func forgetIdleAccounts() {
            if running == 0 && waiting.isEmpty {
                lastTurn.removeAll(keepingCapacity: true)
            } else if lastTurn.count > 4 * (running + waiting.count) + 64 {
                let inLine = Set(waiting.map(\.account))
                lastTurn = lastTurn.filter { inLine.contains($0.key) }
            }
        }
    }

    private let state = Mutex(State())
    /// Checks that may run at once.
    public let capacity: Int
    /// Attempts one account may have waiting.
    public let waitingPerAccount: Int
    /// Attempts one client may have waiting, for all accounts.
    public let waitingPerClient: Int
    /// How long an attempt may wait for its turn.
    public let maximumWait: Duration
    private let clock: any Clock<Duration>

    /// A line of `capacity` checks at once, with at most `waitingPerAccount`
    /// and `waitingPerClient` waiting, each for at most `maximumWait` on `clock`.
    public init(
        capacity: Int, waitingPerAccount: Int = 2, waitingPerClient: Int = 8, maximumWait: Duration = .seconds(1),
        clock: any Clock<Duration> = ContinuousClock()
    ) {
        self.capacity = capacity
        self.waitingPerAccount = waitingPerAccount
        self.waitingPerClient = waitingPerClient
        self.maximumWait = maximumWait
        self.clock = clock
    }

    /// Waits for a turn: `true` when it has one (end it with `leave()`),
    /// `false` when refused, the line being full for this account or client
    /// or the wait too long.
    public func enter(account: String, client: String) async -> Bool {
        await withCheckedContinuation { continuation in
            let admission = state.withLock { state -> Admission in
                if state.running < capacity && state.waiting.isEmpty {
                    state.start(account)
                    return .now
                }
                guard capacity > 0, state.waiting.count(where: { $0.account == account }) < waitingPerAccount,
                    state.waiting.count(where: { $0.client == client }) < waitingPerClient
                else { return .refused }
                state.nextID += 1
                state.waiting.append(Waiter(id: state.nextID, account: account, client: client, continuation: continuation))
                return .waiting(state.nextID)
            }
            switch admission {
            case .now: continuation.resume(returning: true)
            case .refused: continuation.resume(returning: false)
            case .waiting(let id):
                let timeout = Task { [clock, maximumWait] in
                    try? await clock.sleep(for: maximumWait)
                    if !Task.isCancelled { self.giveUp(id) }
                }
                // Kept to be stopped by the turn; a turn that came already stops it now.
                let isWaiting = state.withLock { state in
                    guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return false }
                    state.waiting[index].timeout = timeout
                    return true
                }
                if !isWaiting { timeout.cancel() }
            }
        }
    }

    private enum Admission {
        case now, refused
        case waiting(Int)
    }

    /// Ends a turn; the next waiter's starts.
    public func leave() {
        let next = state.withLock { state -> Waiter? in
            state.running -= 1
            defer { state.forgetIdleAccounts() }
            guard let next = state.takeNext() else { return nil }
            state.start(next.account)
            return next
        }
        next?.timeout?.cancel()
        next?.continuation.resume(returning: true)
    }

    /// Attempts waiting now.
    public var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Ends a wait that ran out: refused, if it is still in the line.
    private func giveUp(_ id: Int) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            return state.waiting.remove(at: index)
        }
        waiter?.continuation.resume(returning: false)
    }
}
