import HTTPServer
import SectionalSQL
import Synchronization

/// Whether this replica should be sent traffic (`/readyz`): its database
/// answers with every migration applied, and it is not draining. `/healthz`
/// says only that the process answers.
public final class Readiness: Sendable {
    private let draining = Atomic<Bool>(false)
    private let pool: ConnectionPool?
    private let expectedVersion: Int
    /// How long the database may take to answer before the replica counts as not ready.
    private let timeout: Duration

    /// Readiness of a replica on `pool` (`nil`: data in memory, always ready).
    public init(pool: ConnectionPool?, timeout: Duration = .seconds(1)) {
        self.pool = pool
        expectedVersion = Schema.migrations.map(\.version).max() ?? 0
        self.timeout = timeout
    }

    /// From now on `/readyz` answers 503, so a load balancer stops sending
    /// new requests while those in flight finish (SIGTERM's first step).
    public func startDraining() { draining.store(true, ordering: .relaxed) }

    public var isDraining: Bool { draining.load(ordering: .relaxed) }

    /// `nil` when ready, else why not, one line.
    public func problem() async -> String? {
        if isDraining { return "draining: this replica is stopping" }
        guard let pool else { return nil }
        let expected = expectedVersion
        let timeout = timeout
        do {
            let version = try await withThrowingTaskGroup(of: Int?.self) { group in
                group.addTask { try await pool.run { db in try db.schemaVersion() } }
                group.addTask {
                    try await Task.sleep(for: timeout)
                    return nil
                }
                defer { group.cancelAll() }
                return try await group.next() ?? nil
            }
            guard let version else { return "the database did not answer within \(timeout)" }
            return version >= expected ? nil : "migrations not applied: the schema is at \(version), this server needs \(expected)"
        } catch {
            return "the database does not answer: \(error)"
        }
    }

    /// `GET /readyz`: `200 ready`, or `503` saying why not.
    func response() async -> Response {
        guard let problem = await problem() else { return "ready".response() }
        var response = Response(status: .serviceUnavailable, contentType: "text/plain; charset=utf-8", body: problem + "\n")
        response.headers["Cache-Control"] = "no-store"
        return response
    }
}
