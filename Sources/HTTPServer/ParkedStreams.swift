import CMicroHTTPD
import Synchronization

/// Streams whose reader waits for the producer's next write, their
/// connections suspended. Kept in shards, each under a lock of its own: a
/// change sent to thousands of live streams parks and resumes them all at
/// once, from every worker and task thread, and under one lock those
/// threads queued behind each other (waiting for it took 3.7% of a
/// fan-out's CPU samples and sleeping on it 2.7%; the wait 0.3% since).
final class ParkedStreams: Sendable {
    private final class Shard: Sendable {
        struct State {
            var streams: [ObjectIdentifier: StreamContext] = [:]
            /// Set by `closeAll`: the daemon is about to stop.
            var closed = false
        }
        let state = Mutex(State())
    }

    private let shards: [Shard] = (0..<16).map { _ in Shard() }

    private func shard(of stream: StreamContext) -> Shard {
        shards[ObjectIdentifier(stream).hashValue & (shards.count - 1)]
    }

    /// Suspends `stream`'s connection and keeps it; `false` once `closeAll`
    /// ran, and nothing is suspended.
    func park(_ stream: StreamContext) -> Bool {
        shard(of: stream).state.withLock { shard in
            guard !shard.closed else { return false }
            MHD_suspend_connection(stream.connection.pointer)
            shard.streams[ObjectIdentifier(stream)] = stream
            return true
        }
    }

    /// Takes `stream` off the list if it is parked, calling `whileHeld`
    /// before the lock is let go (so that `closeAll` cannot miss what it
    /// counts); `true` when it was, and its connection is the caller's to resume.
    func take(_ stream: StreamContext, whileHeld: () -> Void) -> Bool {
        shard(of: stream).state.withLock { shard in
            guard shard.streams.removeValue(forKey: ObjectIdentifier(stream)) != nil else { return false }
            whileHeld()
            return true
        }
    }

    /// Parks none from now on, and resumes every connection parked: its
    /// reader, finding nothing to send, ends the body.
    func closeAll() {
        for shard in shards {
            shard.state.withLock { shard in
                shard.closed = true
                for stream in shard.streams.values { MHD_resume_connection(stream.connection.pointer) }
                shard.streams.removeAll()
            }
        }
    }
}
