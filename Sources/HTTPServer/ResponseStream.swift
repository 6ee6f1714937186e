import Synchronization

/// A body written piece by piece while the response is already on its way:
/// the page's head goes out at once, its sections as they finish.
///
/// ```swift
/// Response(headers: ["Content-Type": "text/html"], body: .stream(ResponseStream { writer in
///     await writer.write(Array("<p>first</p>".utf8))
///     try? await Task.sleep(for: .milliseconds(100))
///     await writer.write(Array("<p>second</p>".utf8))
/// }))
/// ```
///
/// The server runs `produce` in the task that computed the response and
/// sends what it writes with chunked transfer encoding; a client that reads
/// slowly makes each write wait for room, and when the client goes away,
/// that task is cancelled and further writes are dropped.
public struct ResponseStream: Sendable {
    private enum Writing: Sendable {
        /// A producer that writes the body and returns at its end.
        case produced(@Sendable (ResponseBodyWriter) async -> Void)
        /// Written by whoever `open` handed the writer to, until they finish it.
        case handedOver(@Sendable (ResponseBodyWriter) -> Void)
    }

    private let writing: Writing
    /// Whether it stays open, mostly idle, for as long as its client wants
    /// (server-sent events): its connection then keeps less memory.
    public let staysOpen: Bool

    /// A body written by `produce`, which runs once the headers are on their
    /// way; `staysOpen` for one that stays open, mostly idle (server-sent events).
    public init(staysOpen: Bool = false, _ produce: @escaping @Sendable (ResponseBodyWriter) async -> Void) {
        self.staysOpen = staysOpen
        writing = .produced(produce)
    }

    /// A body that stays open after `open` returns, mostly idle (server-sent
    /// events): `open` runs once the headers are on their way and hands the
    /// writer on to whatever writes to it later, which ends it with
    /// `finish()` and learns of a client gone from `whenClosed`. Nothing
    /// waits in the meantime: a task waiting for what a stream sends next
    /// kept about 2 kB an idle event stream (its frames and allocator's blocks).
    public init(handingOver open: @escaping @Sendable (ResponseBodyWriter) -> Void) {
        staysOpen = true
        writing = .handedOver(open)
    }

    /// Starts writing into `writer`: the producer runs in a task of its own,
    /// which finishes the body at its end; a handed-over body is opened here.
    func start(into writer: ResponseBodyWriter) -> Task<Void, Never>? {
        switch writing {
        case .produced(let produce):
            return Task {
                await produce(writer)
                writer.finish()
            }
        case .handedOver(let open):
            open(writer)
            return nil
        }
    }

    /// Runs the producer to its end, writing into `writer`: what a test
    /// client does to read a streamed body. A handed-over body ends when it
    /// is finished, or when the calling task is cancelled: the client is gone.
    public func produce(into writer: ResponseBodyWriter) async {
        switch writing {
        case .produced(let produce):
            await produce(writer)
        case .handedOver(let open):
            let ending = HandedOverEnding(writer.sink)
            await withTaskCancellationHandler {
                await withCheckedContinuation { ended in
                    ending.whenClosed { ended.resume() }
                    open(ResponseBodyWriter(sink: ending))
                }
            } onCancel: {
                ending.close()
            }
        }
    }
}

/// Where a stream's producer writes.
public struct ResponseBodyWriter: Sendable {
    let sink: any ResponseBodySink

    /// A writer into `sink`.
    public init(sink: any ResponseBodySink) {
        self.sink = sink
    }

    /// Bytes a writer leaves unsent before its next write waits for the
    /// client to take them: a slow client slows its producer, which holds
    /// no more than this (and the write in hand) for it.
    public static let backlogLimit = 256 * 1024

    /// Sends `bytes` after everything written before, first waiting (no
    /// thread held) while more than `backlogLimit` bytes written before are
    /// still unsent. Once the client is gone it returns at once, writing
    /// nothing. Empty writes are ignored.
    public func write(_ bytes: [UInt8]) async {
        guard !bytes.isEmpty else { return }
        if sink.unsentBytes > Self.backlogLimit {
            await withCheckedContinuation { (drained: CheckedContinuation<Void, Never>) in sink.whenDrained { drained.resume() } }
        }
        sink.write(bytes)
    }

    /// Sends `bytes` without waiting, for a producer that cannot suspend
    /// where it writes: a page's cards, written as each load ends, whose
    /// whole is bounded by the page. Past the stream's hard limit (4 MiB
    /// unsent) the stream ends with an error.
    package func writeWithoutWaiting(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        sink.write(bytes)
    }

    /// Whether the client is still there to read what is written.
    public var isOpen: Bool { sink.isOpen }

    /// Bytes written that the client has not taken yet: a long-lived stream
    /// writes nothing more while there are any, so a reader that stopped
    /// reading costs one write's bytes, not a backlog.
    public var unsentBytes: Int { sink.unsentBytes }

    /// Bytes the client has taken so far: unchanged while it reads nothing.
    public var sentBytes: UInt64 { sink.sentBytes }

    /// Runs `action` once the client has taken everything written (at once if it has).
    public func whenDrained(_ action: @escaping @Sendable () -> Void) { sink.whenDrained(action) }

    /// Ends the response now, whatever is still unsent: for a client that stopped reading.
    public func abandon() { sink.abandon() }

    /// Ends the body once what was written is sent: a handed-over body's
    /// end (`ResponseStream(handingOver:)`); a producer's body ends when it returns.
    public func finish() { sink.finish() }

    /// Runs `action` once the client is gone or the body has ended (at once if so).
    public func whenClosed(_ action: @escaping @Sendable () -> Void) { sink.whenClosed(action) }
}

/// What a streamed body is written into: the server's connection, or a
/// test client's buffer.
public protocol ResponseBodySink: Sendable {
    /// Takes `bytes` after everything written before.
    func write(_ bytes: [UInt8])
    /// Whether a reader is still there.
    var isOpen: Bool { get }
    /// Bytes written and not yet taken by the reader.
    var unsentBytes: Int { get }
    /// Bytes taken by the reader so far.
    var sentBytes: UInt64 { get }
    /// Runs `action` once `unsentBytes` is zero.
    func whenDrained(_ action: @escaping @Sendable () -> Void)
    /// Drops what is unsent and ends the response with an error.
    func abandon()
    /// No more writes: the body ends once what was written is taken.
    func finish()
    /// Runs `action` once the reader is gone or the body has ended.
    func whenClosed(_ action: @escaping @Sendable () -> Void)
}

extension ResponseBodySink {
    /// A sink whose reader takes each write at once.
    public var unsentBytes: Int { 0 }
    public var sentBytes: UInt64 { 0 }
    public func whenDrained(_ action: @escaping @Sendable () -> Void) { action() }
    public func abandon() {}
    /// A sink that learns of the end from the producer's return.
    public func finish() {}
    /// A sink whose reader stays for as long as the body is written.
    public func whenClosed(_ action: @escaping @Sendable () -> Void) {}
}

/// What `ResponseStream.produce(into:)` hands a handed-over body: the
/// reader's sink, and an end that its caller waits for.
private final class HandedOverEnding: ResponseBodySink {
    private let sink: any ResponseBodySink
    private let closing = Mutex(ClosingActions())

    init(_ sink: any ResponseBodySink) { self.sink = sink }

    func write(_ bytes: [UInt8]) { if !isEnded { sink.write(bytes) } }
    var isOpen: Bool { !isEnded && sink.isOpen }
    var unsentBytes: Int { sink.unsentBytes }
    var sentBytes: UInt64 { sink.sentBytes }
    func whenDrained(_ action: @escaping @Sendable () -> Void) { sink.whenDrained(action) }
    func abandon() {
        sink.abandon()
        close()
    }

    private var isEnded: Bool { closing.withLock { $0.isClosed } }

    func finish() { close() }

    func whenClosed(_ action: @escaping @Sendable () -> Void) {
        if !closing.withLock({ $0.add(action) }) { action() }
    }

    /// The body ended, finished or its reader gone: whoever writes it, and whoever waits for its end, are told.
    func close() {
        closing.withLock { $0.close() }.forEach { $0() }
    }
}
