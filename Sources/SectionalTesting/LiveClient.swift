import HTTPServer

/// Speaks HTTP/1.1 to a server on a loopback port, one connection per
/// request, on a thread of its own so the server's tasks never wait for it.
public struct LiveClient: TestClient {
    /// The loopback port the server listens on.
    public let port: Int

    /// A client for the server on `127.0.0.1:port`.
    public init(port: Int) {
        self.port = port
    }

    public func execute(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders, body: [UInt8]) async throws -> TestResponse {
        let lines = headers.map { "\($0.name): \($0.value)" } + ["Connection: close"]
        let text = String(decoding: body, as: UTF8.self)
        let raw = try await onOwnThread { [port] in
            try RawHTTPClient(port: port).request(method.rawValue, target, headers: lines, body: body.isEmpty ? nil : text)
        }
        var received = HTTPHeaders()
        for (name, value) in raw.headers { received.add(name, value) }
        return TestResponse(status: HTTPStatus(raw.status, raw.reason), headers: received, bodyBytes: raw.body)
    }
}

/// The configuration of servers that tests start.
extension ServerConfiguration {
    /// A free port, two worker threads, no access log, and a short grace
    /// period so a test's stop never lingers.
    public static func forTests(shutdownGrace: Duration = .milliseconds(500)) -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.threads = 2
        configuration.accessLog = false
        configuration.shutdownGrace = shutdownGrace
        return configuration
    }
}

/// Starts a server for `responder` on a free port, runs `body` with it and
/// stops it, without blocking a task's thread, whether `body` throws or not.
public func withLiveServer<Result: Sendable>(
    _ responder: some Responder, configuration: ServerConfiguration = .forTests(), logger: Logger = LogCollector().logger,
    _ body: (Server) async throws -> Result
) async throws -> Result {
    let server = try Server.start(configuration, responder: responder, logger: logger)
    do {
        let result = try await body(server)
        await server.shutdown()
        return result
    } catch {
        await server.shutdown()
        throw error
    }
}
