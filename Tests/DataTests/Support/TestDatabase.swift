import FeedApp
import Foundation
import SectionalPostgres
import SectionalSQL
import SectionalSQLite
import SectionalSecurity
import SectionalTesting
import Testing

/// The engines the stores run on; each store test runs on all of them.
enum Engine: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite, postgres, memory

    var testDescription: String { rawValue }

    /// The SQL engines only.
    static let sql: [Engine] = [.sqlite, .postgres]
}

/// Fresh databases for tests: a SQLite file in a new temporary directory,
/// or a new database on the PostgreSQL that `make test` starts
/// (`scripts/with-postgres.sh`), or, run without one, on one the tests start
/// themselves. Where PostgreSQL cannot be had, tests on it fail saying why:
/// they never skip, so a run shows that both engines were exercised.
enum TestDatabase {
    static let postgresVariable = "SECTIONAL_TEST_POSTGRES"

    /// Where a new, empty database of `engine` is.
    static func newLocation(_ engine: Engine) async throws -> DatabaseLocation {
        switch engine {
        case .memory: return .memory
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sectional-test-\(UUID().uuidString)")
            return .sqlite(path: directory.appendingPathComponent("test.sqlite").path)
        case .postgres:
            let admin = try postgresAdminURL()
            let name = "test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            // On a thread of its own: CREATE DATABASE takes a while, and would hold one of the threads every test's tasks run on.
            try await onOwnThread { try PostgresConnection(url: admin).executeScript("CREATE DATABASE \(name)") }
            return .postgres(url: admin.replacingOccurrences(of: "/postgres", with: "/\(name)"))
        }
    }

    /// The PostgreSQL `make test` started, else one of this run's own.
    static func postgresAdminURL() throws -> String {
        if let url = ProcessInfo.processInfo.environment[postgresVariable] { return url }
        return try OwnPostgres.url.get()
    }

    /// The app's data on a new database of `engine`, seeded; closed after `body`.
    static func withData<T>(
        _ engine: Engine, connections: Int = 2, seed: Bool = true, _ body: (AppData, DatabaseLocation) async throws -> T
    ) async throws -> T {
        let location = try await newLocation(engine)
        let data = try await AppData.open(location, connections: connections, seed: seed, hasher: PasswordHasher(.minimal))
        defer {
            data.pool?.close()
            if case .sqlite(let path) = location { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        }
        return try await body(data, location)
    }

    /// A bare pool on a new database of a SQL engine, nothing migrated, as
    /// the app opens it: on SQLite with a reader for each thread that reads,
    /// on PostgreSQL with a pipeline of `size` connections for `query`.
    static func pool(_ engine: Engine, size: Int = 2) async throws -> ConnectionPool {
        switch try await newLocation(engine) {
        case .sqlite(let path):
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return try await ConnectionPool.opening(
                size: size, dialect: .sqlite, readers: { () throws(SQLError) in try SQLiteConnection(path: path, readOnly: true) }
            ) { () throws(SQLError) in try SQLiteConnection(path: path) }
        case .postgres(let url):
            return try await ConnectionPool.opening(
                size: size, dialect: .postgres, pipeline: { () throws(SQLError) in try PostgresPipeline(url: url, connections: size) }
            ) { () throws(SQLError) in try PostgresConnection(url: url) }
        case .memory:
            preconditionFailure("memory has no pool")
        }
    }
}
