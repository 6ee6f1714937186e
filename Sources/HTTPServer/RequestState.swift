import CMicroHTTPD
import Synchronization

/// What the server keeps for one request between libmicrohttpd's calls.
///
/// Made when the request line arrives, released when libmicrohttpd reports
/// the request complete. `phase` and the log fields are touched only by the
/// connection's worker thread; the answer of an async responder crosses
/// from its task under `handoff`. It is the request's `RequestLog` too,
/// whose user any task answering the request may note (under its own lock).
final class RequestState: RequestLog, @unchecked Sendable {
    enum Phase {
        /// Headers are arriving; answering now would cost keep-alive.
        case receivingHeaders
        case receivingBody
        /// Suspended while a task computes the answer.
        case waiting
        case answered
    }

    /// The target in origin form, as the access log shows it.
    let target: String
    /// Why the raw target is refused, if it is.
    let targetProblem: HTTPError?
    /// The connection's entry in the registry; `nil` only if libmicrohttpd lost it.
    let tracked: ConnectionRegistry.Tracked?
    let startedAt: UInt64
    // Not checked for overlapping access at run time (`@exclusivity(unchecked)`, about ten checks a
    // request): no access to them is held across a call that reaches them again.
    /// Names the request in every line logged for it (`Request.id`): the
    /// server's own from the start, the proxy's once its head is read.
    @exclusivity(unchecked) var id = RequestID.next()
    @exclusivity(unchecked) var phase = Phase.receivingHeaders
    @exclusivity(unchecked) var method = HTTPMethod.get
    /// The header fields, read once the head has arrived.
    @exclusivity(unchecked) var headers = HTTPHeaders()
    /// The request body as it arrives, at most the configured limit.
    @exclusivity(unchecked) var body: [UInt8] = []
    @exclusivity(unchecked) var status = 0
    @exclusivity(unchecked) var sentBytes: UInt64 = 0
    /// The answer's timing, repeated in the access log.
    @exclusivity(unchecked) var timing: ServerTiming?
    /// The route that answered, for metrics and the log.
    @exclusivity(unchecked) var route: String?
    /// The connection while suspended; cleared once resumed.
    @exclusivity(unchecked) var connection: ConnectionHandle?

    private struct Handoff {
        var response: Response?
        var resumeClaimed = false
        /// The stream the response's body is written into, if it streams.
        var stream: StreamContext?
        /// The task answering the request, for cancellation when the client leaves.
        var task: Task<Void, Never>?
        /// The task writing a long-lived stream's body, once the answering task has handed it over.
        var producer: Task<Void, Never>?
        /// A long-lived stream's body went on without the answering task (`setProducer`).
        var tookOver = false
        var cancelRequested = false
    }
    private let handoff = Mutex(Handoff())

    init(rawTarget: String, connection: ConnectionRegistry.Tracked?, startedAt: UInt64) {
        tracked = connection
        switch RequestTarget.originForm(of: rawTarget) {
        case .success(let target):
            self.target = target
            targetProblem = nil
        case .failure(let problem):
            // Logged, so it must not carry control bytes into the log.
            target = RequestTarget.printable(rawTarget)
            targetProblem = problem
        }
        self.startedAt = startedAt
        super.init()
    }

    /// Stores the answer (and the stream its body is written into); `true`
    /// when the caller must now resume the connection.
    func deliver(_ response: consuming Response, stream: StreamContext? = nil) -> Bool {
        // Moved into the lock's closure through an optional: captured as is, it would be copied.
        var moving = Optional(response)
        return handoff.withLock { handoff in
            guard !handoff.resumeClaimed else { return false }
            handoff.response = moving.take()
            handoff.stream = stream
            handoff.resumeClaimed = true
            return true
        }
    }

    /// Takes the delivered answer, if it has arrived.
    func takeResponse() -> (Response, StreamContext?)? {
        handoff.withLock { handoff in
            // Taken out, not copied and then cleared.
            guard let response = handoff.response.take() else { return nil }
            return (response, handoff.stream)
        }
    }

    /// Whether an answer has been delivered (taken or not).
    var hasDelivered: Bool { handoff.withLock { $0.resumeClaimed } }

    /// The stream of the answer, once delivered.
    var stream: StreamContext? { handoff.withLock { $0.stream } }

    /// Remembers the task answering the request.
    func setTask(_ task: Task<Void, Never>) {
        let cancelNow = handoff.withLock { handoff in
            // Once a producer took over, the answering task has ended (see `setProducer`).
            guard !handoff.tookOver else { return false }
            handoff.task = task
            return handoff.cancelRequested
        }
        if cancelNow { task.cancel() }
    }

    /// Remembers the task writing a long-lived stream's body, `nil` for a
    /// body handed over (`ResponseStream(handingOver:)`): the answering task ends.
    func setProducer(_ producer: Task<Void, Never>?) {
        let cancelNow = handoff.withLock { handoff in
            // An ended task keeps its memory while anything holds it.
            handoff.task = nil
            handoff.producer = producer
            handoff.tookOver = true
            return handoff.cancelRequested
        }
        if cancelNow { producer?.cancel() }
    }

    /// Cancels the tasks answering the request, now or as soon as they are known.
    func cancelTask() {
        let (task, producer) = handoff.withLock { handoff in
            handoff.cancelRequested = true
            return (handoff.task, handoff.producer)
        }
        task?.cancel()
        producer?.cancel()
    }
}

/// A connection pointer that may cross into the task computing its answer.
/// It is used only to resume the connection, exactly once, while libmicrohttpd
/// keeps the connection alive for it (a suspended connection is never freed).
struct ConnectionHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
