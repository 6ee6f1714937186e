import CMicroHTTPD
import Synchronization

/// What the server keeps for one request between libmicrohttpd's calls.
///
/// Made when the request line arrives, released when libmicrohttpd reports
/// the request complete. `phase` and the log fields are touched only by the
/// connection's worker thread; the answer of an async responder crosses
/// from its task under `handoff`.
final class RequestState: @unchecked Sendable {
    enum Phase {
        /// Headers are arriving; answering now would cost keep-alive.
        case receivingHeaders
        case receivingBody
        /// Suspended while a task computes the answer.
        case waiting
        case answered
    }

    let target: String
    let startedAt: UInt64
    var phase = Phase.receivingHeaders
    var method = HTTPMethod.get
    var bodyBytes = 0
    var status = 0
    var sentBytes: UInt64 = 0
    /// The connection while suspended; cleared once resumed.
    var connection: ConnectionHandle?

    private struct Handoff {
        var response: Response?
        var resumeClaimed = false
    }
    private let handoff = Mutex(Handoff())

    init(target: String, startedAt: UInt64) {
        self.target = target
        self.startedAt = startedAt
    }

    /// Stores the answer; `true` when the caller must now resume the connection.
    func deliver(_ response: Response) -> Bool {
        handoff.withLock { handoff in
            guard !handoff.resumeClaimed else { return false }
            handoff.response = response
            handoff.resumeClaimed = true
            return true
        }
    }

    /// Takes the delivered answer, if it has arrived.
    func takeResponse() -> Response? {
        handoff.withLock { handoff in
            defer { handoff.response = nil }
            return handoff.response
        }
    }
}

/// A connection pointer that may cross into the task computing its answer.
/// It is used only to resume the connection, exactly once, while libmicrohttpd
/// keeps the connection alive for it (a suspended connection is never freed).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
