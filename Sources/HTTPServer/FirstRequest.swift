/// What a new connection's first bytes say of its first request: whether
/// it opens an event stream, which the acceptor hands to the daemons whose
/// connections get a stream's small buffer.
enum FirstRequest: Equatable {
    /// A complete `GET` head that accepts `text/event-stream`, as every
    /// `EventSource` sends.
    case eventStream
    /// Anything else, a head past `limit` bytes included: too large for a stream's buffer.
    case other
    /// The start of a `GET` head, the rest still to come.
    case incomplete

    /// Reads the head at the front of `bytes`, of which at most `limit` are looked at.
    init(_ bytes: some Collection<UInt8>, limit: Int) {
        let method = "GET ".utf8
        guard bytes.starts(with: method.prefix(bytes.count)) else {
            self = .other
            return
        }
        let head = Array(bytes.prefix(limit))
        guard let end = Self.endOfHead(head) else {
            self = head.count >= limit ? .other : .incomplete
            return
        }
        let fields = String(decoding: head[..<end], as: UTF8.self).lowercased().split(separator: "\r\n").dropFirst()
        let accepts = fields.contains { $0.hasPrefix("accept:") && $0.contains("text/event-stream") }
        self = accepts ? .eventStream : .other
    }

    /// Where the blank line that ends the head begins.
    private static func endOfHead(_ head: [UInt8]) -> Int? {
        let blankLine: [UInt8] = [13, 10, 13, 10]
        guard head.count >= blankLine.count else { return nil }
        return (0...(head.count - blankLine.count)).first { head[$0..<($0 + blankLine.count)].elementsEqual(blankLine) }
    }
}
