import Foundation

/// A deliberately small HTTP/1.1 client over one blocking TCP connection,
/// for tests that need exact control over the bytes on the wire.
///
/// Every read and write has a timeout, so a server that never answers fails
/// the test instead of hanging the run. It blocks its thread: use it inside
/// `onOwnThread`, never directly on the concurrency pool the server's tasks need.
///
/// ```swift
/// let response = try await onOwnThread {
///     let client = try RawHTTPClient(port: server.port)
///     try client.send("GET /feed HTTP/1.1\r\nHost: localhost\r\nContent-Length: -1\r\n\r\n")
///     return try client.readResponse()
/// }
/// ```
public final class RawHTTPClient {
    /// Why a connection or a response failed.
    public enum Failure: Error, CustomStringConvertible {
        /// The connection could not be made; `errno` says why.
        case connect(errno: Int32)
        /// Nothing came, or nothing could be sent, before the timeout.
        case timedOut
        /// The server closed the connection after this many bytes of the response.
        case closedByServer(afterBytes: Int)
        /// What came is not the HTTP this client reads; the text says where.
        case malformed(String)

        public var description: String {
            switch self {
            case .connect(let code): "connect failed: \(String(cString: strerror(code)))"
            case .timedOut: "no answer before the timeout"
            case .closedByServer(let count): "the server closed the connection after \(count) bytes of this response"
            case .malformed(let reason): "malformed response: \(reason)"
            }
        }
    }

    private let descriptor: Int32
    /// Bytes received but not yet consumed as part of a response.
    private var pending: [UInt8] = []

    /// Connects to `127.0.0.1:port`.
    public init(port: Int, timeout: Duration = .seconds(20)) throws {
        descriptor = try Self.connect(port: port)
        let (seconds, attoseconds) = timeout.components
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Whether a connection attempt to `127.0.0.1:port` is refused.
    public static func isRefused(port: Int) -> Bool {
        do {
            close(try connect(port: port))
            return false
        } catch Failure.connect(let code) {
            return code == ECONNREFUSED
        } catch {
            return false
        }
    }

    /// Sends raw bytes, e.g. a request written out by hand.
    public func send(_ text: String) throws {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let sent = bytes.withUnsafeBytes { sendWithoutSignal(descriptor, $0) }
            guard sent > 0 else { throw errno == EAGAIN ? Failure.timedOut : Failure.closedByServer(afterBytes: 0) }
            bytes = bytes.dropFirst(sent)
        }
    }

    /// Sends a GET request and reads its response.
    public func request(_ target: String, headers: [String] = []) throws -> RawResponse {
        try request("GET", target, headers: headers)
    }

    /// Sends one request and reads its response. `headers` are whole lines
    /// such as `If-None-Match: "x"`; a body gets its `Content-Length`.
    public func request(_ method: String, _ target: String, headers: [String] = [], body: String? = nil) throws -> RawResponse {
        var lines = ["\(method) \(target) HTTP/1.1", "Host: 127.0.0.1"] + headers
        if let body { lines.append("Content-Length: \(body.utf8.count)") }
        try send(lines.joined(separator: "\r\n") + "\r\n\r\n" + (body ?? ""))
        return try readResponse(toHead: method == "HEAD")
    }

    /// Reads exactly one response: its head, then as many body bytes as
    /// `Content-Length` announces (none for HEAD, 304 and 204), so the next
    /// response on the connection starts where this one ends.
    public func readResponse(toHead: Bool = false) throws -> RawResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        while true {
            headEnd = pending.firstRange(of: separator)?.lowerBound
            if headEnd != nil { break }
            try receiveMore(responseBytesSoFar: pending.count)
        }
        let head = String(decoding: pending[..<headEnd!], as: UTF8.self)
        pending.removeFirst(headEnd! + separator.count)

        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]) else {
            throw Failure.malformed("status line '\(head.prefix(80))'")
        }
        let headers = try lines.map { line in
            guard let colon = line.firstIndex(of: ":") else { throw Failure.malformed("header line '\(line)'") }
            return (name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        var response = RawResponse(status: status, reason: statusLine.count > 2 ? String(statusLine[2]) : "", headers: headers, body: [])

        if toHead || status == 304 || status == 204 || status < 200 { return response }
        if let length = response.header("Content-Length").flatMap({ Int($0) }) {
            while pending.count < length { try receiveMore(responseBytesSoFar: pending.count) }
            response.body = Array(pending[..<length])
            pending.removeFirst(length)
        } else if response.header("Transfer-Encoding")?.lowercased() == "chunked" {
            while let chunk = try readChunk() { response.body += chunk }
        } else {
            // No length: the body ends when the server closes the connection.
            while (try? receiveMore(responseBytesSoFar: pending.count)) != nil {}
            response.body = pending
            pending.removeAll()
        }
        return response
    }

    /// Reads one chunk of a chunked body; `nil` for the last (empty) chunk,
    /// after which the next response may follow.
    public func readChunk() throws -> [UInt8]? {
        let line = try readLine()
        guard let sizeField = line.split(separator: ";", omittingEmptySubsequences: false).first,
            sizeField.allSatisfy(\.isHexDigit), let size = Int(sizeField, radix: 16)
        else {
            throw Failure.malformed("chunk size line '\(line)'")
        }
        if size == 0 {
            while try !readLine().isEmpty {}  // trailer fields, then the blank line
            return nil
        }
        while pending.count < size + 2 { try receiveMore(responseBytesSoFar: pending.count) }
        let chunk = Array(pending[..<size])
        pending.removeFirst(size + 2)
        return chunk
    }

    private func readLine() throws -> String {
        let crlf: [UInt8] = [13, 10]
        while pending.firstRange(of: crlf) == nil { try receiveMore(responseBytesSoFar: pending.count) }
        let end = pending.firstRange(of: crlf)!.lowerBound
        let line = String(decoding: pending[..<end], as: UTF8.self)
        pending.removeFirst(end + 2)
        return line
    }

    /// Closes the connection from the client's side, mid-response if need be.
    public func disconnect() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Whether the server has closed the connection (waits up to the timeout for it).
    public func isClosedByServer() -> Bool {
        guard pending.isEmpty else { return false }
        var byte: UInt8 = 0
        return recv(descriptor, &byte, 1, 0) == 0
    }

    /// Reads until the bytes received and not yet consumed contain
    /// `marker` (`occurrences` times), consuming nothing: for watching a
    /// stream arrive. `false` on timeout or close.
    public func waitFor(_ marker: String, occurrences: Int = 1) -> Bool {
        let bytes = Array(marker.utf8)
        while pending.ranges(of: bytes).count < occurrences {
            guard (try? receiveMore(responseBytesSoFar: pending.count)) != nil else { return false }
        }
        return true
    }

    /// Reads until the server closes the connection: `true` when it did,
    /// `false` when the timeout passed first, so a check that the server
    /// ended something cannot pass on a timeout. What arrived stays unread.
    public func waitForClose() -> Bool {
        while true {
            do {
                try receiveMore(responseBytesSoFar: pending.count)
            } catch Failure.closedByServer {
                return true
            } catch {
                return false
            }
        }
    }

    /// Everything the server sends from now until it closes the connection
    /// (or the timeout passes), unparsed: for checking that exactly one
    /// response came back.
    public func readUntilClosed() -> String {
        while (try? receiveMore(responseBytesSoFar: pending.count)) != nil {}
        defer { pending.removeAll() }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Received bytes not yet consumed as a response, as text.
    public var unreadText: String { String(decoding: pending, as: UTF8.self) }

    private func receiveMore(responseBytesSoFar count: Int) throws {
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if received > 0 {
            pending.append(contentsOf: chunk[..<received])
        } else if received == 0 || errno == ECONNRESET {
            throw Failure.closedByServer(afterBytes: count)
        } else {
            throw errno == EAGAIN || errno == EWOULDBLOCK ? Failure.timedOut : Failure.malformed("recv errno \(errno)")
        }
    }

    private static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure.connect(errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        guard connectToLoopback(fd, &address) == 0 else {
            let code = errno
            close(fd)
            throw Failure.connect(errno: code)
        }
        return fd
    }
}

/// A response as it came over the wire.
public struct RawResponse: Sendable {
    /// The status code, e.g. `200`.
    public var status: Int
    /// The status line's reason phrase.
    public var reason: String = ""
    /// The header fields in the order received, names as the server spelled them.
    public var headers: [(name: String, value: String)]
    /// The body; a chunked one is joined from its chunks.
    public var body: [UInt8]

    /// The first value of the named header (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// Every value of the named header, in order.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
    }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

// The socket calls, outside the class whose methods share their names.

private func sendWithoutSignal(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int {
    send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL))
}

private func connectToLoopback(_ fd: Int32, _ address: inout sockaddr_in) -> Int32 {
    withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
}
