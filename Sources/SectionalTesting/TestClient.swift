import HTTPServer

/// Sends requests to an app under test and reads whole answers, the same
/// way in process and over a real socket: write a test once, run it on
/// either (`withTestClient(_:_:_:)`).
///
/// ```swift
/// try await withTestClient(router, .live) { client in
///     let response = try await client.get("/feed?sections=alerts")
///     #expect(response.status == .ok)
/// }
/// ```
public protocol TestClient: Sendable {
    /// Sends one request; a streamed body is read to its end.
    func execute(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders, body: [UInt8]) async throws -> TestResponse
}

extension TestClient {
    /// `GET target`, `target` as on the request line: path and query.
    public func get(_ target: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await execute(.get, target, headers: headers, body: [])
    }

    /// `HEAD target`: the headers of a `GET`, no body.
    public func head(_ target: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await execute(.head, target, headers: headers, body: [])
    }

    /// `POST target` with an HTML form's fields as its body, as a browser
    /// sends it (`application/x-www-form-urlencoded`).
    public func post(_ target: String, form fields: [(String, String)], headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        if headers["Content-Type"] == nil { headers.add("Content-Type", "application/x-www-form-urlencoded") }
        let body = fields.map { PercentEncoding.encode($0.0) + "=" + PercentEncoding.encode($0.1) }.joined(separator: "&")
        return try await execute(.post, target, headers: headers, body: Array(body.utf8))
    }

    /// Sends one request without a body.
    public func execute(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        try await execute(method, target, headers: headers, body: [])
    }
}

/// An answer as a client reads it: status, headers as sent, whole body.
public struct TestResponse: Sendable {
    /// The status, e.g. `.ok`.
    public var status: HTTPStatus
    /// The answer's headers, `Server-Timing` included; live, also the server's framing (`Content-Length`).
    public var headers: HTTPHeaders
    /// The whole body; empty for HEAD.
    public var bodyBytes: [UInt8]

    /// A response as a client read it.
    public init(status: HTTPStatus, headers: HTTPHeaders, bodyBytes: [UInt8]) {
        self.status = status
        self.headers = headers
        self.bodyBytes = bodyBytes
    }

    /// The body as UTF-8 text.
    public var bodyText: String { String(decoding: bodyBytes, as: UTF8.self) }
}

/// Where a `TestClient` finds the app.
public enum TestMode: Sendable, CaseIterable {
    /// The responder called in this process: fast, no socket.
    case inProcess
    /// A real `Server` on a free loopback port, spoken to over HTTP/1.1.
    case live
}

/// Runs `body` with a client for `responder`: in process, or against a real
/// server on a free port that is stopped afterwards.
public func withTestClient<Result: Sendable>(
    _ responder: some Responder, _ mode: TestMode, configuration: ServerConfiguration = .forTests(),
    _ body: (any TestClient) async throws -> Result
) async throws -> Result {
    switch mode {
    case .inProcess:
        return try await body(InProcessClient(responder))
    case .live:
        return try await withLiveServer(responder, configuration: configuration) { server in
            try await body(LiveClient(port: server.port))
        }
    }
}
