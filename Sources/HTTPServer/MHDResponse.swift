import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Turns a `Response` into a libmicrohttpd response.
enum MHDResponse {
    /// A new response object (reference count one), or `nil` when the file
    /// body cannot be opened any more.
    static func make(_ response: Response, stream: StreamContext?, closeConnection: Bool) -> OpaquePointer? {
        let made: OpaquePointer?
        switch response.body {
        case .stream where stream == nil:
            // HEAD: headers only, the producer never runs.
            made = empty()
        case .stream(let body):
            let context = Unmanaged.passRetained(stream!)
            made = MHD_create_response_from_callback(
                sectional_size_unknown, body.staysOpen ? openStreamBlockSize : 16 * 1024,
                MHDCallbacks.readStream, context.toOpaque(), MHDCallbacks.freeStream)
            if made == nil { context.release() }
        case .bytes(let bytes) where bytes.isEmpty:
            made = empty()
        case .bytes(let bytes):
            // From the array's own storage, not a copy: the box keeps the array alive, unchanged.
            let box = SentBytes(bytes)
            made = sent(from: box.start, count: bytes.count, keptBy: box)
        case .buffer(let buffer):
            made = sent(from: buffer.start, count: buffer.count, keptBy: buffer)
        case .file(let path, let size):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            made = MHD_create_response_from_fd64(size, fd)
            if made == nil { close(fd) }
        }
        guard let made else { return nil }
        let hasTiming = response.timing.map { !$0.isEmpty } ?? false
        response.headers.forEachCString { name, value in
            guard !isContentLength(name) && !(hasTiming && isServerTiming(name)) else { return }
            MHD_add_response_header(made, name, value)
        }
        // `sentHeaders` without copying `headers`: the timing replaces any field of its name.
        if hasTiming, let timing = response.timing {
            timing.withHeaderValueCString { value in _ = MHD_add_response_header(made, "Server-Timing", value) }
        }
        if closeConnection {
            MHD_add_response_header(made, "Connection", "close")
        }
        return made
    }

    /// The buffer libmicrohttpd allocates with a streamed response that
    /// stays open (zeroed, with the response). A chunked body is written into
    /// the connection's own buffer and never uses it; only a client of
    /// HTTP/1.0 (nginx's default towards its upstreams), which gets no chunks,
    /// is sent through it, this many bytes a call. At the 16 KiB a streamed
    /// page keeps, it was a third of an idle live stream's memory (16.5 of 51 kB);
    /// at 1 KiB, 0.8 of its 16.6 kB.
    static let openStreamBlockSize = 256

    /// A response sent from memory that `owner` keeps alive: libmicrohttpd
    /// holds a reference to it until it frees the response.
    private static func sent(from start: UnsafeMutableRawPointer?, count: Int, keptBy owner: AnyObject) -> OpaquePointer? {
        guard count > 0 else { return empty() }
        let reference = Unmanaged.passRetained(owner)
        let made = MHD_create_response_from_buffer_with_free_callback_cls(count, start, MHDCallbacks.releaseOwner, reference.toOpaque())
        if made == nil { reference.release() }
        return made
    }

    /// A response with no body.
    private static func empty() -> OpaquePointer? { MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT) }

    private static func isServerTiming(_ name: UnsafePointer<CChar>) -> Bool { strcasecmp(name, "Server-Timing") == 0 }

    /// libmicrohttpd writes `Content-Length` itself.
    private static func isContentLength(_ name: UnsafePointer<CChar>) -> Bool { strcasecmp(name, "Content-Length") == 0 }
}

/// A response body handed to libmicrohttpd without copying it.
final class SentBytes {
    let bytes: [UInt8]
    /// The first byte of `bytes`' storage, which stays put while `bytes` lives unchanged.
    let start: UnsafeMutableRawPointer

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        start = bytes.withUnsafeBytes { UnsafeMutableRawPointer(mutating: $0.baseAddress!) }
    }
}
