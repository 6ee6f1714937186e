import Synchronization

/// A body written piece by piece while the response is already on its way:
/// the page's head goes out at once, its sections as they finish.
///
/// ```swift
/// Response(headers: ["Content-Type": "text/html"], body: .stream(ResponseStream { writer in
///     writer.write(Array("<p>first</p>".utf8))
///     try? await Task.sleep(for: .milliseconds(100))
///     writer.write(Array("<p>second</p>".utf8))
/// }))
/// ```
///
/// The server runs `produce` in the task that computed the response and
/// sends what it writes with chunked transfer encoding; when the client goes
/// away, that task is cancelled and further writes are dropped.
public struct ResponseStream: Sendable {
    let produce: @Sendable (ResponseBodyWriter) async -> Void

    public init(_ produce: @escaping @Sendable (ResponseBodyWriter) async -> Void) {
        self.produce = produce
    }

    /// Runs the producer and returns everything it wrote, in order: for tests,
    /// and for answers that must be whole (HEAD).
    public func collect() async -> [UInt8] {
        let sink = CollectingSink()
        await produce(ResponseBodyWriter(sink: sink))
        return sink.bytes.withLock { $0 }
    }
}

/// Where a stream's producer writes.
public struct ResponseBodyWriter: Sendable {
    let sink: any ByteSink

    /// Sends `bytes` after everything written before; empty writes are ignored.
    public func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        sink.write(bytes)
    }

    /// Whether the client is still there to read what is written.
    public var isOpen: Bool { sink.isOpen }
}

protocol ByteSink: Sendable {
    func write(_ bytes: [UInt8])
    var isOpen: Bool { get }
}

private final class CollectingSink: ByteSink {
    let bytes = Mutex<[UInt8]>([])
    func write(_ bytes: [UInt8]) { self.bytes.withLock { $0 += bytes } }
    var isOpen: Bool { true }
}
