import CMicroHTTPD
import Dispatch
import Synchronization

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The state shared by all the worker threads' daemons: the responder, the
/// log, and the requests in flight. libmicrohttpd's callbacks reach it
/// through their `cls` pointer.
final class ServerCore: Sendable {
    let responder: any Responder
    let logger: Logger
    let configuration: ServerConfiguration
    /// Requests begun and not yet completed; `stop()` waits for zero.
    let inFlight = Atomic<Int>(0)
    /// Signalled when the last request in flight completes while stopping: `stop()` waits on it, not on a clock.
    let lastRequestDone = DispatchSemaphore(value: 0)
    let isStopping = Atomic<Bool>(false)
    /// Set while draining: every answer closes its connection, so a proxy that
    /// keeps connections alive opens new ones to other replicas.
    let isDraining = Atomic<Bool>(false)
    /// Streams not yet freed: the proof, in tests, that finished streams leak nothing.
    let liveStreams = Atomic<Int>(0)
    /// Open connections, and which of them wait for a request head.
    let connections: ConnectionRegistry
    /// Requests whose connection is suspended while a task answers them.
    /// Suspending, taking a connection off the list to resume it, and
    /// `stop()`'s sweep all happen under its lock, so no connection is left
    /// suspended when the daemon stops.
    private let parked = Mutex(Parked())
    /// Connections taken off the parked list whose resume has not returned
    /// yet. Resuming signals libmicrohttpd's worker (a system call), so it
    /// happens after the lock is released: held across it, the lock kept
    /// the other threads parking and resuming waiting. `resumeAllSuspended()`
    /// waits for zero, so no resume is still running when the daemon stops.
    private let resumesInFlight = Atomic<Int>(0)
    /// Streams whose reader waits for the producer's next write.
    private let parkedStreams = ParkedStreams()

    private struct Parked {
        var states: [ObjectIdentifier: RequestState] = [:]
        /// Set by `resumeAllSuspended()`: the daemon is about to stop.
        var closed = false
    }

    init(responder: any Responder, logger: Logger, configuration: ServerConfiguration) {
        self.responder = responder
        self.logger = logger
        self.configuration = configuration
        connections = ConnectionRegistry(
            headTimeout: configuration.requestHeadTimeout, softLimit: configuration.connectionLimit,
            perClientLimit: configuration.perClientConnectionLimit)
    }

    // MARK: The request's life, one libmicrohttpd call at a time

    func begin(target: String, connection: ConnectionRegistry.Tracked?) -> RequestState {
        inFlight.add(1, ordering: .relaxed)
        return RequestState(rawTarget: target, connection: connection, startedAt: DispatchTime.now().uptimeNanoseconds)
    }

    func handle(
        _ connection: OpaquePointer, _ state: RequestState, line: RequestLine,
        uploadData: UnsafePointer<CChar>?, uploadSize: UnsafeMutablePointer<Int>
    ) -> MHD_Result {
        switch state.phase {
        case .receivingHeaders:
            state.method = line.decodedMethod
            state.phase = .receivingBody
            // Too late: the head took longer than allowed and the connection is closing.
            if let tracked = state.tracked, !connections.headArrived(tracked) { return .NO }
            // libmicrohttpd accepts an answer before the body only now (and then closes).
            if let refusal = refusalBeforeBody(connection, state, isHTTP10: line.isHTTP10) {
                return queue(refusal, on: connection, state)
            }
            return .YES
        case .receivingBody where uploadSize.pointee > 0:
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            // A chunked body that grows too large can no longer be answered: close.
            guard state.body.count + count <= configuration.requestBodyLimit, let uploadData else { return .NO }
            uploadData.withMemoryRebound(to: UInt8.self, capacity: count) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
            return .YES
        case .receivingBody:
            return dispatch(connection, state)
        case .waiting:
            guard let (response, stream) = state.takeResponse() else { return .YES }
            return queue(response, stream: stream, on: connection, state)
        case .answered:
            return .YES
        }
    }

    func complete(_ state: RequestState, _ termination: MHD_RequestTerminationCode) {
        // Sequentially consistent with `stop()`: either this sees it stopping, or it sees none left.
        let left = inFlight.subtract(1, ordering: .sequentiallyConsistent).newValue
        if left == 0, isStopping.load(ordering: .sequentiallyConsistent) { lastRequestDone.signal() }
        if let tracked = state.tracked { connections.requestEnded(tracked) }
        // A client that left mid-answer leaves nothing running behind it.
        state.cancelTask()
        if termination.rawValue != 0 {  // not MHD_REQUEST_TERMINATED_COMPLETED_OK
            Logger.$requestID.withValue(state.id) {
                logger.debug("\(state.method) \(state.target): ended before its answer was complete (\(termination))")
            }
        }
        guard configuration.accessLog || configuration.requestObserver != nil else { return }
        if let stream = state.stream { state.sentBytes = stream.sentBytes }
        let nanoseconds = DispatchTime.now().uptimeNanoseconds - state.startedAt
        configuration.requestObserver?(
            CompletedRequest(
                method: state.method, route: state.route ?? "unmatched", status: state.status, bytes: state.sentBytes,
                duration: .nanoseconds(Int64(nanoseconds))))
        guard configuration.accessLog else { return }
        switch logger.format {
        case .text:
            let status = state.status == 0 ? "- (\(termination))" : String(state.status)
            let timing = state.timing.map { " [\($0.headerValue)]" } ?? ""
            Logger.$requestID.withValue(state.id) {
                logger.info("\(state.method) \(state.target) \(status) \(state.sentBytes)B \(nanoseconds / 1000)us\(timing)")
            }
        case .json:
            logger.write(AccessLogLine(state: state, microseconds: nanoseconds / 1000, termination: "\(termination)").json)
        }
    }

    // MARK: Answering

    /// Why the request is refused before its body is read, if it is: a
    /// malformed target or head, an expectation not met, a body too large,
    /// a body where none belongs, or no route for it. Refusing now is what
    /// keeps libmicrohttpd from sending `100 Continue` first.
    private func refusalBeforeBody(_ connection: OpaquePointer, _ state: RequestState, isHTTP10: Bool) -> Response? {
        if let problem = state.targetProblem { return problem.response() }
        let head = RequestFraming.scan(connection)
        if let problem = head.problem(isHTTP10: isHTTP10) { return HTTPError(.badRequest, problem).response() }
        state.headers = head.headers
        if let expectation = head.expectation, expectation != "100-continue" {
            return HTTPError(.expectationFailed, "Only Expect: 100-continue is understood.").response()
        }
        guard head.declaresBody else { return nil }
        let request = try? Request(method: state.method, target: state.target, headers: state.headers)
        if let length = head.contentLength, length > UInt64(configuration.requestBodyLimit) {
            let error = HTTPError(.contentTooLarge, "The request body is too large.")
            // As the app answers errors: a page for a browser's form, JSON under an API.
            return request.map { responder.errorResponse(error, for: $0) } ?? error.response()
        }
        if state.method.isRead { return HTTPError(.badRequest, "A \(state.method) request carries no body.").response() }
        guard let request else { return nil }  // the dispatch answers a malformed target
        return responder.refusal(for: request)
    }

    private func dispatch(_ connection: OpaquePointer, _ state: RequestState) -> MHD_Result {
        let request: Request
        do {
            if let proposed = state.headers["X-Request-ID"].flatMap(RequestID.proposed) { state.id = proposed }
            request = Self.withPeer(
                try Request(method: state.method, target: state.target, headers: state.headers, body: state.body), connection, state)
            // The request has them now; the record stays for as long as the connection's answer, an event stream's for hours.
            state.headers = HTTPHeaders()
        } catch {
            return queue(error.response(), on: connection, state)
        }
        // What the task needs of the request, so that the request itself is moved to the responder.
        let (method, path) = (request.method, request.path)
        let work: @Sendable () async throws -> Response
        switch responder.reply(to: consume request) {
        case .now(let response):
            // A streamed body is produced in a task: answered from here, its producer would never run.
            guard case .stream = response.body, method != .head else { return queue(response, on: connection, state) }
            work = { response }
        case .later(let later): work = later
        }
        // Answer in a task that starts right here and leaves this thread only
        // if it has to wait; a worker thread never waits for it.
        state.phase = .waiting
        let handle = ConnectionHandle(pointer: connection)
        state.connection = handle
        let id = state.id
        func startAnswer() -> Task<Void, Never> {
            Task.immediate { [self] in
                await Logger.$requestID.withValue(id) { await answerInTask(method, path, by: work, handle: handle, state: state) }
            }
        }
        var started: Task<Void, Never>?
        configuration.startingRequests? { if started == nil { started = startAnswer() } }
        state.setTask(started ?? startAnswer())
        return parkUnlessAnswered(connection, state)
    }

    /// The answer, computed and delivered in the request's own task; a streamed body is written from it too.
    private func answerInTask(
        _ method: HTTPMethod, _ path: String, by work: @Sendable () async throws -> Response, handle: ConnectionHandle, state: RequestState
    ) async {
        let response = await answer(method, path, by: work)
        guard case .stream(let body) = response.body, method != .head else {
            deliver(response, to: state)
            return
        }
        // Send the headers now; write the body from this same task.
        let stream = StreamContext(connection: handle, core: self, staysOpen: body.staysOpen)
        stream.onRelease = { [weak state] in state?.cancelTask() }
        // Produce only if the headers go out: stop() may have answered 503 already.
        guard deliver(response, stream: stream, to: state) else { return }
        guard body.staysOpen else {
            await body.produce(into: ResponseBodyWriter(sink: stream))
            stream.finish()
            return
        }
        // A task keeps the memory its deepest call took until it ends, and
        // answering took the most (the session, the composition): an idle
        // stream's producer runs in a task of its own (a handed-over body in
        // none), and this one ends.
        state.setProducer(body.start(into: ResponseBodyWriter(sink: stream)))
    }

    /// The request with the connection's address, moved rather than copied (`Response` says why).
    private static func withPeer(_ request: consuming Request, _ connection: OpaquePointer, _ state: RequestState) -> Request {
        request.peer = PeerAddress(of: connection)
        request.name = state.id
        request.log = state
        return consume request
    }

    /// Queues the answer if the task has delivered it already; otherwise
    /// suspends the connection until it does.
    private func parkUnlessAnswered(_ connection: OpaquePointer, _ state: RequestState) -> MHD_Result {
        let isParked = parked.withLock { parked -> Bool in
            guard !state.hasDelivered else { return false }
            guard !parked.closed else {
                _ = state.deliver(HTTPError(.serviceUnavailable, "The server is stopping.").response())
                return false
            }
            MHD_suspend_connection(connection)
            parked.states[ObjectIdentifier(state)] = state
            return true
        }
        guard !isParked, let (response, stream) = state.takeResponse() else { return .YES }
        return queue(response, stream: stream, on: connection, state)
    }

    private func answer(_ method: HTTPMethod, _ path: String, by work: @Sendable () async throws -> Response) async -> Response {
        do {
            return try await work()
        } catch let error as HTTPError {
            return error.response()
        } catch {
            logger.error("\(method) \(path): \(String(reflecting: error))")
            return HTTPError(.internalServerError, "The server failed to answer; the error is logged.").response()
        }
    }

    /// Hands the answer over, and resumes the connection if it was parked.
    /// `false` when `stop()` answered the request already.
    @discardableResult
    private func deliver(_ response: consuming Response, stream: StreamContext? = nil, to state: RequestState) -> Bool {
        var moving = Optional(response)  // moved into the closure, as in `RequestState.deliver`
        var toResume: OpaquePointer?
        let delivered = parked.withLock { parked in
            guard let response = moving.take(), state.deliver(consume response, stream: stream) else { return false }
            if parked.states.removeValue(forKey: ObjectIdentifier(state)) != nil, let connection = state.connection {
                toResume = connection.pointer
                resumesInFlight.add(1, ordering: .relaxed)
            }
            return true
        }
        if let toResume { resume(toResume) }
        return delivered
    }

    /// Suspends a stream's connection until its producer writes; `false`
    /// when the server is stopping and parks nothing more.
    func park(_ stream: StreamContext) -> Bool { parkedStreams.park(stream) }

    /// Resumes a parked stream's connection, unless `stop()` already did.
    func unpark(_ stream: StreamContext) {
        let wasParked = parkedStreams.take(stream) { resumesInFlight.add(1, ordering: .relaxed) }
        if wasParked { resume(stream.connection.pointer) }
    }

    /// Resumes a connection taken off the parked list, outside its lock.
    private func resume(_ connection: OpaquePointer) {
        MHD_resume_connection(connection)
        resumesInFlight.subtract(1, ordering: .releasing)
    }

    /// Answers every parked request with 503, and parks none from now on,
    /// so that the daemon can stop.
    func resumeAllSuspended() {
        let unavailable = HTTPError(.serviceUnavailable, "The server is stopping.").response()
        parked.withLock { parked in
            parked.closed = true
            for state in parked.states.values where state.deliver(unavailable) {
                if let connection = state.connection { MHD_resume_connection(connection.pointer) }
            }
            parked.states.removeAll()
        }
        // A woken stream reader that finds nothing to send can no longer park: it ends the body.
        parkedStreams.closeAll()
        // Nothing is parked from now on, so the count only falls; each resume takes microseconds.
        while resumesInFlight.load(ordering: .acquiring) > 0 { sched_yield() }
    }

    private func queue(_ response: Response, stream: StreamContext? = nil, on connection: OpaquePointer, _ state: RequestState) -> MHD_Result {
        // A stream whose producer finished before its headers went out is sent whole.
        if let stream, let body = stream.takeWholeBody() {
            var whole = response
            whole.body = .bytes(body)
            return queue(whole, on: connection, state)
        }
        state.phase = .answered
        state.status = response.status.code
        state.sentBytes = state.method == .head ? 0 : response.body.count
        state.route = response.route
        if configuration.accessLog {
            state.timing = response.timing
        }
        // A connection handed to the streams' daemons (`Acceptor`) closes after its answer, whatever
        // it is: a proxy's next request on it would meet a stream's small buffer.
        let closing =
            isStopping.load(ordering: .relaxed) || isDraining.load(ordering: .relaxed) || state.tracked?.isStream == true
        if let prepared = response.prepared, !closing {
            return MHD_queue_response(connection, UInt32(response.status.code), prepared.pointer)
        }
        guard let made = MHDResponse.make(response, stream: stream, closeConnection: closing) else {
            return queue(HTTPError(.notFound, "The file is gone.").response(), on: connection, state)
        }
        defer { MHD_destroy_response(made) }
        return MHD_queue_response(connection, UInt32(response.status.code), made)
    }
}
