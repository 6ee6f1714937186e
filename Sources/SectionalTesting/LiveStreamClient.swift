/// A page's live stream (`/PAGE/live`) opened as a browser's EventSource
/// opens it, over a real socket, read as its events arrive.
///
/// ```swift
/// let stream = try LiveStreamClient(port: server.port, path: "/goals/live", cookie: cookie)
/// #expect(try await stream.waitFor("retry: 1000"))      // open
/// // … a write …
/// #expect(try await stream.waitFor("event: section"))   // the changed card
/// ```
///
/// Its socket is handed between the test's task and the threads it reads
/// on, one at a time, never two at once: that is why it may cross.
public final class LiveStreamClient: @unchecked Sendable {
    private let client: RawHTTPClient

    /// The end of the stream's chunked body: its last chunk, after the one
    /// before it (events end their lines with a bare LF).
    public static let end = "\r\n0\r\n\r\n"

    /// Opens `path` with `cookie` (a `Cookie` field's value, `name=value`)
    /// and, to resume, the last event's id. Each wait gives up after `timeout`.
    public init(port: Int, path: String, cookie: String?, lastEventID: String? = nil, timeout: Duration = .seconds(10)) throws {
        client = try RawHTTPClient(port: port, timeout: timeout)
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
        if let cookie { head += "Cookie: \(cookie)\r\n" }
        if let lastEventID { head += "Last-Event-ID: \(lastEventID)\r\n" }
        try client.send(head + "\r\n")
    }

    /// Waits until everything received holds `marker` `occurrences` times,
    /// on a thread of its own; `false` when it did not within the timeout.
    public func waitFor(_ marker: String, occurrences: Int = 1) async throws -> Bool {
        try await onOwnThread { [self] in client.waitFor(marker, occurrences: occurrences) }
    }

    /// Everything received so far, as text.
    public var unreadText: String { client.unreadText }
}
