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
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .file(let path, let size):
            let fd = open(path, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { return nil }
            made = MHD_create_response_from_fd64(size, fd)
            if made == nil { close(fd) }
        }
        guard let made else { return nil }
        for (name, value) in response.sentHeaders where !name.equalsIgnoringASCIICase("Content-Length") {
            MHD_add_response_header(made, name, value)
        }
        if closeConnection {
            MHD_add_response_header(made, "Connection", "close")
        }
        return made
    }
}
