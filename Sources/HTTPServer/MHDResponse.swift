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
            made = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .stream:
            let context = Unmanaged.passRetained(stream!)
            made = MHD_create_response_from_callback(
                sectional_size_unknown, 16 * 1024,
                MHDCallbacks.readStream, context.toOpaque(), MHDCallbacks.freeStream)
            if made == nil { context.release() }
        case .bytes(let bytes) where bytes.isEmpty:
            made = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .bytes(let bytes):
            // Sent from the array's own storage, not a copy: the box keeps the
            // array alive, and nothing changes it, until libmicrohttpd frees the response.
            let box = Unmanaged.passRetained(SentBytes(bytes))
            made = MHD_create_response_from_buffer_with_free_callback_cls(
                bytes.count, box.takeUnretainedValue().start, MHDCallbacks.releaseBytes, box.toOpaque())
            if made == nil { box.release() }
        case .buffer(let buffer) where buffer.count == 0:
            made = MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT)
        case .buffer(let buffer):
            // Sent from the buffer itself: libmicrohttpd's reference keeps it until the response is freed.
            let owner = Unmanaged.passRetained(buffer)
            made = MHD_create_response_from_buffer_with_free_callback_cls(
                buffer.count, buffer.start, MHDCallbacks.releaseBuffer, owner.toOpaque())
            if made == nil { owner.release() }
        case .file(let path, let size):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            made = MHD_create_response_from_fd64(size, fd)
            if made == nil { close(fd) }
        }
        guard let made else { return nil }
        let hasTiming = response.timing.map { !$0.isEmpty } ?? false
        for (name, value) in response.headers where !isContentLength(name) && !(hasTiming && isServerTiming(name)) {
            add(name, value, to: made)
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

    /// Lent as C strings in place; passed as `String`s, each would be copied into a new array.
    private static func add(_ name: String, _ value: String, to response: OpaquePointer) {
        name.withCString { name in value.withCString { value in _ = MHD_add_response_header(response, name, value) } }
    }

    private static func isServerTiming(_ name: String) -> Bool {
        name.utf8.count == 13 && name.equalsIgnoringASCIICase("Server-Timing")
    }

    /// libmicrohttpd writes `Content-Length` itself. Compared by length first: most fields are not it.
    private static func isContentLength(_ name: String) -> Bool {
        name.utf8.count == 14 && name.equalsIgnoringASCIICase("Content-Length")
    }
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
