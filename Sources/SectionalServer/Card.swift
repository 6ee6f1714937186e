import Sectional
import Synchronization

/// What a live stream knows of one of its kept cards: enough to find the
/// card's event at a newer version without making the card's section again.
/// One object for every stream that shows the same card (`PageRoutes.liveCard`).
final class Card: Sendable {
    let cacheKey: String
    let keys: Set<LiveKey>
    /// The page's address for the stream's composition: the card's links (Remove) are made from it.
    let page: String
    private let state = Mutex(State())

    private struct State {
        /// The card's last event, with its version and id.
        var latest: (version: Int, id: String, event: [UInt8])?
        /// The event a stream is making now, and the streams waiting for it.
        var making: (version: Int, id: String, waiters: [CheckedContinuation<Void, Never>])?
    }

    /// Where a stream's event for the card comes from.
    enum Claim {
        /// Made already.
        case made([UInt8])
        /// This stream makes it, then calls `finish`.
        case yours
        /// Another stream makes the card at another version or id: this one makes its own.
        case elsewhere
    }

    /// The card's event `id` at `version` if it is made already; `nil` otherwise.
    func made(at version: Int, id: String) -> [UInt8]? {
        state.withLock { state in
            guard let latest = state.latest, latest.version == version, latest.id == id else { return nil }
            return latest.event
        }
    }

    /// The card's event `id` at `version`: made already, waited for while
    /// another stream makes it, or this stream's to make.
    func claim(at version: Int, id: String) async -> Claim {
        enum Step { case made([UInt8]), wait, yours, elsewhere }
        let step = state.withLock { state -> Step in
            if let latest = state.latest, latest.version == version, latest.id == id { return .made(latest.event) }
            if let making = state.making { return making.version == version && making.id == id ? .wait : .elsewhere }
            state.making = (version, id, [])
            return .yours
        }
        switch step {
        case .made(let event): return .made(event)
        case .yours: return .yours
        case .elsewhere: return .elsewhere
        case .wait:
            await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
                let isWaiting = state.withLock { state in
                    guard state.making?.version == version, state.making?.id == id else { return false }
                    state.making?.waiters.append(waiter)
                    return true
                }
                if !isWaiting { waiter.resume() }
            }
            return state.withLock { state in
                guard let latest = state.latest, latest.version == version, latest.id == id else { return .elsewhere }
                return .made(latest.event)
            }
        }
    }

    /// Ends the claim of `.yours`: `event`, if one was made, is the card's
    /// event `id` at `version`, and the streams waiting for it go on.
    func finish(at version: Int, id: String, event: [UInt8]?) {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            if let event { state.latest = (version, id, event) }
            guard let making = state.making, making.version == version, making.id == id else { return [] }
            state.making = nil
            return making.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    init(cacheKey: String, keys: Set<LiveKey>, page: String) {
        self.cacheKey = cacheKey
        self.keys = keys
        self.page = page
    }
}
