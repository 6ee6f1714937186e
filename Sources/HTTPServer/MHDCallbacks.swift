import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#endif

/// The C callbacks libmicrohttpd calls on its worker threads. They live here,
/// outside any actor, and capture nothing: their state comes through `cls`.
enum MHDCallbacks {
    /// Called once per request with the raw request target; what it returns
    /// becomes the request's `*con_cls`.
    static let requestStarted: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = {
        cls, uri, connection in
        guard let cls, let uri, let connection else { return nil }
        let tracked = sectional_connection_socket_context(connection).map {
            Unmanaged<ConnectionRegistry.Tracked>.fromOpaque($0).takeUnretainedValue()
        }
        let state = withCore(cls) { $0.begin(target: String(cString: uri), connection: tracked) }
        return Unmanaged.passRetained(state).toOpaque()
    }

    static let access: MHD_AccessHandlerCallback = { cls, connection, _, method, version, uploadData, uploadSize, requestContext in
        guard let cls, let connection, let method, let uploadSize,
            let pointer = requestContext?.pointee
        else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(pointer).takeUnretainedValue()
        return withCore(cls) {
            $0.handle(connection, state, line: RequestLine(method: method, version: version), uploadData: uploadData, uploadSize: uploadSize)
        }
    }

    static let completed: MHD_RequestCompletedCallback = { cls, _, requestContext, termination in
        guard let cls, let requestContext, let pointer = requestContext.pointee else { return }
        requestContext.pointee = nil
        let state = Unmanaged<RequestState>.fromOpaque(pointer).takeRetainedValue()
        withCore(cls) { $0.complete(state, termination) }
    }

    /// A connection accepted while the server stops is closed at once.
    static let acceptUnlessStopping: MHD_AcceptPolicyCallback = { cls, _, _ in
        guard let cls else { return .NO }
        return withCore(cls) { $0.isStopping.load(ordering: .relaxed) } ? .NO : .YES
    }

    /// A connection opened or is about to close: the registry follows it,
    /// and the connection keeps its entry (a reference of its own) until then.
    static let connectionChanged: MHD_NotifyConnectionCallback = { cls, connection, socketContext, change in
        follow(cls, connection, socketContext, change, isStream: false)
    }

    /// `connectionChanged` for a streams' daemon, whose thread also yields to the pages' threads.
    static let streamConnectionChanged: MHD_NotifyConnectionCallback = { cls, connection, socketContext, change in
        if change == .CONNECTION_NOTIFY_STARTED { sectional_set_thread_nice(10) }
        follow(cls, connection, socketContext, change, isStream: true)
    }

    private static func follow(
        _ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ socketContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        _ change: MHD_ConnectionNotificationCode, isStream: Bool
    ) {
        guard let cls, let connection, let socketContext else { return }
        withCore(cls) { core in
            if change == .CONNECTION_NOTIFY_STARTED {
                let tracked = core.connections.opened(sectional_connection_fd(connection), from: PeerAddress(of: connection), isStream: isStream)
                socketContext.pointee = Unmanaged.passRetained(tracked).toOpaque()
            } else if let pointer = socketContext.pointee {
                socketContext.pointee = nil
                core.connections.closed(Unmanaged<ConnectionRegistry.Tracked>.fromOpaque(pointer).takeRetainedValue())
            }
        }
    }

    /// libmicrohttpd's own messages ("Failed to send data", a client that
    /// left mid-answer): notes on one connection, at `debug`.
    static let log: MHD_LogCallback = { cls, format, arguments in
        guard let cls, let format, let arguments else { return }
        withCore(cls) { core in
            guard core.logger.logs(.debug) else { return }
            var line = [CChar](repeating: 0, count: 512)
            _ = vsnprintf(&line, line.count, format, arguments)
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            core.logger.debug("libmicrohttpd: " + text.trimmingPrefix(" ").split(separator: "\n").joined(separator: " "))
        }
    }

    /// The server behind `cls`, lent for one callback with no reference of
    /// its own: the daemon's (`Server.start`) is released only once the
    /// daemon has stopped. Every worker thread's callbacks reach this one
    /// object, and retaining it was an atomic write to a cache line that
    /// the other cores then had to fetch back.
    private static func withCore<Result>(_ cls: UnsafeMutableRawPointer, _ body: (ServerCore) -> Result) -> Result {
        Unmanaged<ServerCore>.fromOpaque(cls)._withUnsafeGuaranteedRef(body)
    }

    /// Fills libmicrohttpd's buffer from a stream; parks the connection when
    /// the producer has not written yet.
    static let readStream: MHD_ContentReaderCallback = { cls, _, buffer, capacity in
        guard let cls, let buffer else { return MHD_CONTENT_READER_END_WITH_ERROR }
        let stream = Unmanaged<StreamContext>.fromOpaque(cls).takeUnretainedValue()
        switch stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) {
        case .bytes(let count): return count
        case .parked: return 0
        case .endOfStream: return MHD_CONTENT_READER_END_OF_STREAM
        case .failed: return MHD_CONTENT_READER_END_WITH_ERROR
        }
    }

    /// A response sent from memory an object keeps (an array's box, a
    /// `ResponseBuffer`) is freed: the object may go.
    static let releaseOwner: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<AnyObject>.fromOpaque(cls).release()
    }

    /// The stream's response is freed: the body ended or the client left.
    static let freeStream: MHD_ContentReaderFreeCallback = { cls in
        guard let cls else { return }
        Unmanaged<StreamContext>.fromOpaque(cls).takeRetainedValue().release()
    }
}
