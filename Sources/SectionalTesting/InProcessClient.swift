import HTTPServer
import Synchronization

/// Calls a responder in this process as the server would: the quick path
/// first, then the async one; a streamed body is produced to its end, and
/// the headers are those the server would send.
public struct InProcessClient: TestClient {
    /// The app under test, usually its `Router`.
    public let responder: any Responder

    /// A client that calls `responder`.
    public init(_ responder: some Responder) {
        self.responder = responder
    }

    public func execute(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders, body: [UInt8]) async throws -> TestResponse {
        let response = try await answer(method, target, headers: headers, body: body)
        var bytes = response.bodyBytes
        if case .stream(let stream) = response.body, method != .head {
            let sink = CollectingSink()
            await stream.produce(into: ResponseBodyWriter(sink: sink))
            bytes = sink.bytes
        }
        return TestResponse(status: response.status, headers: response.sentHeaders, bodyBytes: method == .head ? [] : bytes)
    }

    /// The answer as the responder gives it, a streamed body still unread.
    public func answer(_ method: HTTPMethod, _ target: String, headers: HTTPHeaders = [:], body: [UInt8] = []) async throws -> Response {
        let request: Request
        do {
            request = try Request(method: method, target: target, headers: headers, body: body)
        } catch {
            return error.response()  // the server answers a malformed target itself
        }
        do {
            switch responder.reply(to: request) {
            case .now(let response): return response
            case .later(let work): return try await work()
            }
        } catch let error as HTTPError {
            return error.response()
        }
    }
}

/// A body sink that keeps everything written.
final class CollectingSink: ResponseBodySink {
    private let collected = Mutex<[UInt8]>([])

    func write(_ bytes: [UInt8]) { collected.withLock { $0 += bytes } }

    var isOpen: Bool { true }

    var bytes: [UInt8] { collected.withLock { $0 } }
}
