import CMicroHTTPD

/// A libmicrohttpd response built once and queued on many connections:
/// libmicrohttpd counts its references and lets any thread queue it, so a
/// fixed answer (a cached static file) skips the copy and the header work.
final class PreparedResponse: @unchecked Sendable {
    let pointer: OpaquePointer

    /// Builds the response; `nil` for a body that cannot be prepared (a stream, a vanished file).
    init?(_ response: Response) {
        guard case .bytes = response.body, let made = MHDResponse.make(response, stream: nil, closeConnection: false) else {
            return nil
        }
        pointer = made
    }

    deinit { MHD_destroy_response(pointer) }
}
