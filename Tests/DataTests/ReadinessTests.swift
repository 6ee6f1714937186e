import FeedApp
import Foundation
import SectionalPostgres
import SectionalTesting
import Testing

extension TakingTurns {
    @Suite("Readiness and drain", .timeLimit(.minutes(1)))
    struct ReadinessTests {
        @Test("Ready while the database answers with every migration; not ready without them, or without the database")
        func database() async throws {
            try await TestDatabase.withData(.postgres) { data, location in
                let readiness = Readiness(pool: data.pool)
                #expect(await readiness.problem() == nil)
                let pool = try #require(data.pool)
                let newest = try await pool.run { db in try db.schemaVersion() }
                try await pool.run { db in try db.execute("DELETE FROM schema_version WHERE version = $1", [.int(newest)]) }
                #expect(await readiness.problem()?.contains("migrations not applied: the schema is at \(newest - 1)") == true)

                guard case .postgres(let url) = location else { return }
                let name = String(url.split(separator: "/").last!)
                try PostgresConnection(url: try TestDatabase.postgresAdminURL()).executeScript("DROP DATABASE \(name) WITH (FORCE)")
                let gone = await readiness.problem()
                #expect(gone?.contains("does not answer") == true, "\(gone ?? "ready")")
            }
        }

        @Test("Draining: /readyz is 503 while /healthz and pages still answer")
        func draining() async throws {
            let readiness = Readiness(pool: nil)
            let router = try buildRouter(
                publicDirectory: FormHarness.publicDirectory, data: try .memory(), readiness: readiness, logger: LogCollector().logger)
            let client = InProcessClient(router)
            #expect(try await client.get("/readyz").bodyText == "ready")
            readiness.startDraining()
            let draining = try await client.get("/readyz")
            #expect(draining.status == .serviceUnavailable)
            #expect(draining.bodyText.contains("draining"))
            #expect(try await client.get("/healthz").status == .ok)
            #expect(try await client.get("/signin").status == .ok)
        }

        @Test("On SIGTERM the server reports not ready, serves through its drain, then exits 0")
        func sigtermDrains() async throws {
            let (process, port) = try StartupTests.startServer(drain: "3s")
            #expect(try RawHTTPClient(port: port).request("/readyz").status == 200)
            let clock = ContinuousClock()
            let start = clock.now
            process.terminate()  // SIGTERM
            try await Task.sleep(for: .milliseconds(300))
            #expect(try RawHTTPClient(port: port).request("/readyz").status == 503)
            #expect(try RawHTTPClient(port: port).request("/healthz").status == 200)
            #expect(try RawHTTPClient(port: port).request("/signin").status == 200, "still serving while draining")
            process.waitUntilExit()
            let stopped = start.duration(to: clock.now)
            #expect(process.terminationReason == .exit && process.terminationStatus == 0)
            #expect(stopped >= .milliseconds(2900) && stopped < .seconds(8), "stopped after \(stopped)")
        }
    }
}
