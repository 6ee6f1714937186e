import SectionalAccounts
import SectionalServer
import Synchronization

@testable import FeedApp

/// A feed store whose loads a test controls: each can be delayed, or held
/// until a gate opens; it counts the loads started and those still running
/// (a cancelled one stops counting when it ends).
final class ControlledFeedStore: FeedStore {
    let demo = SeedFeedStore()
    let delays: [String: Duration]
    let gate = TestGate()
    let gated: Set<String>
    private let running = Atomic<Int>(0)
    private let started = Atomic<Int>(0)

    init(delays: [String: Duration] = [:], gated: Set<String> = []) {
        self.delays = delays
        self.gated = gated
    }

    var runningLoads: Int { running.load(ordering: .relaxed) }
    var startedLoads: Int { started.load(ordering: .relaxed) }

    private func controlled<Model>(_ id: String, _ load: () async throws -> Model) async throws -> Model {
        running.add(1, ordering: .relaxed)
        started.add(1, ordering: .relaxed)
        defer { running.subtract(1, ordering: .relaxed) }
        if let delay = delays[id] { try await Task.sleep(for: delay) }
        if gated.contains(id) { try await gate.wait() }
        return try await load()
    }

    func accounts(of user: UserID) async throws -> [Account] { try await controlled("balances") { try await demo.accounts(of: user) } }
    func alerts(of user: UserID) async throws -> [FeedAlert] { try await controlled("alerts") { try await demo.alerts(of: user) } }
    func creditScore(of user: UserID) async throws -> CreditScore {
        try await controlled("credit-score") { try await demo.creditScore(of: user) }
    }
    func recentTransactions(of user: UserID, limit: Int) async throws -> [Transaction] {
        try await controlled("recent-activity") { try await demo.recentTransactions(of: user, limit: limit) }
    }
    func notices(on board: String, limit: Int) async throws -> [Notice] {
        try await controlled("notices") { try await demo.notices(on: board, limit: limit) }
    }
    func dismissAlert(_ id: Int, of user: UserID) async throws -> LiveHub.Change? { try await demo.dismissAlert(id, of: user) }
    func restoreAlerts(of user: UserID) async throws -> LiveHub.Change? { try await demo.restoreAlerts(of: user) }
}

/// A latch: waiters go on once it opens; a cancelled waiter throws.
final class TestGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [Int: CheckedContinuation<Void, any Error>], next: Int)>((false, [:], 0))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async throws {
        let id = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.open || Task.isCancelled { return true }
                    state.waiters[id] = continuation
                    return false
                }
                if resumeNow {
                    if Task.isCancelled { continuation.resume(throwing: CancellationError()) } else { continuation.resume() }
                }
            }
        } onCancel: {
            let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
            waiter?.resume(throwing: CancellationError())
        }
    }
}
