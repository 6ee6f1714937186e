import Synchronization

/// Renders of one card that would run at the same moment, made one: when a
/// change reaches many streams showing the same card, the first renders it
/// into the section cache and the others wait for it, then find it kept.
/// Keyed by the card's entry in the cache (its cache key and versions).
final class RenderGate: Sendable {
    private let waiting = Mutex<[String: [CheckedContinuation<Void, Never>]]>([:])

    /// Runs `render` unless a render under `key` is under way, and then
    /// waits for that one instead. - Returns: whether `render` ran.
    func once(_ key: String, _ render: () async -> Void) async -> Bool {
        let isFirst = waiting.withLock { waiting in
            guard waiting[key] == nil else { return false }
            waiting[key] = []
            return true
        }
        guard isFirst else {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                // The render may have ended between the check above and this wait: then there is nothing to wait for.
                let isWaiting = waiting.withLock { waiting in
                    guard waiting[key] != nil else { return false }
                    waiting[key]?.append(continuation)
                    return true
                }
                if !isWaiting { continuation.resume() }
            }
            return false
        }
        await render()
        for waiter in waiting.withLock({ $0.removeValue(forKey: key) ?? [] }) { waiter.resume() }
        return true
    }

    /// How many wait for the render under `key` now.
    func waiters(for key: String) -> Int { waiting.withLock { $0[key]?.count ?? 0 } }
}
