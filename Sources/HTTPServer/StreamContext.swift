import CMicroHTTPD
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The queue between a stream's producer (a task) and libmicrohttpd's
/// content reader (a worker thread).
///
/// When the reader finds the queue empty it suspends the connection, so no
/// worker thread ever spins or waits; the next write resumes it. Parking
/// happens under this object's lock and is registered with the server, so a
/// write never misses a parked reader and `stop()` can wake every one.
final class StreamContext: ResponseBodySink, @unchecked Sendable {
    private struct State {
        var chunks: [[UInt8]] = []
        /// Bytes of `chunks[0]` already sent.
        var offset = 0
        var finished = false
        var readerParked = false
        /// Run once the response is freed: the client is gone or the stream ended.
        var closing = ClosingActions()
        /// Bytes handed to libmicrohttpd, for the access log.
        var sent: UInt64 = 0
        /// Bytes written and not yet sent.
        var queued = 0
        /// The client read too slowly for what was written: the stream ends with an error.
        var overflowed = false
        /// Run once the queue is empty.
        var onDrained: [@Sendable () -> Void] = []
        /// The connection's idle buffer was handed back to the kernel.
        var bufferReleased = false

        /// Clears the parked flag; `true` when the reader was parked and must be woken.
        mutating func takeParkedReader() -> Bool {
            defer { readerParked = false }
            return readerParked
        }
    }

    enum Read {
        case bytes(Int)
        case endOfStream
        case failed
        case parked
    }

    private let state = Mutex(State())
    let connection: ConnectionHandle
    // Strong: a producer may still write after the server stopped; the core's parked set then ignores it.
    private let core: ServerCore
    /// A stream that stays open, mostly idle (server-sent events).
    private let staysOpen: Bool

    init(connection: ConnectionHandle, core: ServerCore, staysOpen: Bool = false) {
        self.connection = connection
        self.core = core
        self.staysOpen = staysOpen
        core.liveStreams.add(1, ordering: .relaxed)
    }

    deinit { core.liveStreams.subtract(1, ordering: .relaxed) }

    /// Bytes a stream may hold for a client that reads slowly: far above any page,
    /// and a bound on what a reader that trickles can cost a producer that
    /// does not wait (`ResponseBodyWriter.write` waits long before it).
    static let queueLimit = 4 << 20

    func write(_ bytes: [UInt8]) {
        let wake = state.withLock { state -> Bool in
            guard !state.finished, !state.closing.isClosed, !state.overflowed else { return false }
            guard state.queued + bytes.count <= Self.queueLimit else {
                state.overflowed = true
                return state.takeParkedReader()
            }
            state.chunks.append(bytes)
            state.queued += bytes.count
            return state.takeParkedReader()
        }
        if wake { core.unpark(self) }
    }

    var isOpen: Bool { state.withLock { !$0.closing.isClosed && !$0.overflowed } }

    var unsentBytes: Int { state.withLock { $0.queued } }

    func whenDrained(_ action: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard state.queued > 0, !state.closing.isClosed, !state.overflowed else { return true }
            state.onDrained.append(action)
            return false
        }
        if now { action() }
    }

    func abandon() {
        var waiting: [@Sendable () -> Void] = []
        let wake = state.withLock { state -> Bool in
            state.overflowed = true
            state.chunks = []
            state.queued = 0
            swap(&waiting, &state.onDrained)
            return state.takeParkedReader()
        }
        // A producer waiting for room goes on, to find the stream closed.
        for action in waiting { action() }
        if wake { core.unpark(self) }
    }

    func whenClosed(_ action: @escaping @Sendable () -> Void) {
        if !state.withLock({ $0.closing.add(action) }) { action() }
    }

    /// No more writes: the reader ends the body once the queue is drained.
    func finish() {
        let wake = state.withLock { state -> Bool in
            state.finished = true
            return state.takeParkedReader()
        }
        if wake { core.unpark(self) }
    }

    /// Everything written, if the producer has already finished: such a body
    /// is better sent whole, with a length, than as chunks.
    func takeWholeBody() -> [UInt8]? {
        state.withLock { state in
            guard state.finished, !state.closing.isClosed else { return nil }
            if state.chunks.count == 1 {
                state.sent = UInt64(state.chunks[0].count)
                return state.chunks.removeFirst()
            }
            var body: [UInt8] = []
            body.reserveCapacity(state.chunks.reduce(0) { $0 + $1.count })
            for chunk in state.chunks { body += chunk }
            state.chunks = []
            state.sent = UInt64(body.count)
            return body
        }
    }

    /// Copies queued bytes into libmicrohttpd's buffer, or parks the reader.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Read {
        var drained: [@Sendable () -> Void] = []
        var releaseBuffer = false
        defer {
            drained.forEach { $0() }
            if releaseBuffer { Self.releasePages(of: buffer) }
        }
        return state.withLock { state in
            if state.overflowed { return .failed }
            if !state.chunks.isEmpty {
                var written = 0
                while written < buffer.count, !state.chunks.isEmpty {
                    // Read in place, not copied out: one change's event is the same bytes in
                    // thousands of streams, and a copy of it counted a reference to them from every thread.
                    let offset = state.offset
                    let (count, chunkCount) = state.chunks[0].withUnsafeBytes { source in
                        let count = min(buffer.count - written, source.count - offset)
                        UnsafeMutableRawBufferPointer(rebasing: buffer[written..<(written + count)])
                            .copyMemory(from: UnsafeRawBufferPointer(rebasing: source[offset..<(offset + count)]))
                        return (count, source.count)
                    }
                    written += count
                    state.offset += count
                    if state.offset == chunkCount {
                        state.chunks.removeFirst()
                        state.offset = 0
                    }
                }
                state.sent += UInt64(written)
                state.queued -= written
                if state.queued == 0 { swap(&drained, &state.onDrained) }
                return .bytes(written)
            }
            if state.finished { return .endOfStream }
            // Park while holding the lock: a write that follows sees the flag and wakes us.
            guard core.park(self) else { return .failed }
            state.readerParked = true
            releaseBuffer = staysOpen && !state.bufferReleased
            state.bufferReleased = true
            return .parked
        }
    }

    /// Hands the whole pages of `buffer` back to the kernel. The buffer is
    /// libmicrohttpd's free space for this connection's next bytes, most of
    /// it zeroed when the request turned to its answer (its read buffer
    /// shrinking): 24 of an idle live stream's 36 KiB stayed resident for
    /// nothing. Pages read back as zeros and return when next written.
    private static func releasePages(of buffer: UnsafeMutableRawBufferPointer) {
        guard let base = buffer.baseAddress else { return }
        let page = Int(sysconf(Int32(_SC_PAGESIZE)))
        let first = (Int(bitPattern: base) + page - 1) / page * page
        let end = (Int(bitPattern: base) + buffer.count) / page * page
        guard end > first, let start = UnsafeMutableRawPointer(bitPattern: first) else { return }
        _ = madvise(start, end - first, MADV_DONTNEED)
    }

    /// The response is gone: drop further writes, and stop the producer.
    func release() {
        var waiting: [@Sendable () -> Void] = []
        let closed = state.withLock { state in
            swap(&waiting, &state.onDrained)
            return state.closing.close()
        }
        // A producer waiting for room goes on, to find the stream closed.
        for action in waiting { action() }
        for action in closed { action() }
        onRelease()
    }

    /// Bytes sent so far.
    var sentBytes: UInt64 { state.withLock { $0.sent } }

    /// Cancels the producing task; set by whoever runs the producer. It must
    /// not hold the request strongly: the request holds this stream.
    var onRelease: @Sendable () -> Void = {}
}
