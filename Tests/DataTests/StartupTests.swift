import FeedApp
import Foundation
import SectionalTesting
import Testing

@Suite("Choosing the database at start")
struct DatabaseOptionTests {
    @Test("--database takes sqlite:PATH, postgres:// URLs and memory:; DATABASE_URL too, the flag winning")
    func parses() throws {
        #expect(try LaunchOptions.parse([]).database == .sqlite(path: "data/sectional.sqlite"))
        #expect(try LaunchOptions.parse(["--database", "sqlite:/var/lib/feed.db"]).database == .sqlite(path: "/var/lib/feed.db"))
        #expect(try LaunchOptions.parse(["--database", "memory:"]).database == .memory)
        let url = "postgres://app@db.internal:5432/feed"
        #expect(try LaunchOptions.parse(["--database", url]).database == .postgres(url: url))
        #expect(try LaunchOptions.parse([], environment: ["DATABASE_URL": url]).database == .postgres(url: url))
        #expect(try LaunchOptions.parse(["--database", "memory:"], environment: ["DATABASE_URL": url]).database == .memory)
        #expect(try LaunchOptions.parse(["--no-seed"]).seed == false)
        #expect(try LaunchOptions.parse(["--db-connections", "3"]).databaseConnections == 3)
    }

    @Test("A location that is none of them names the flag and the forms it takes", arguments: ["mysql://x", "sqlite:", "postgres", "", "memory"])
    func rejects(text: String) {
        #expect(throws: LaunchOptions.Problem.self) { try LaunchOptions.parse(["--database", text]) }
    }

    @Test("A bad DATABASE_URL is refused too; an empty one means the default")
    func environment() throws {
        #expect(throws: LaunchOptions.Problem.self) { try LaunchOptions.parse([], environment: ["DATABASE_URL": "bogus"]) }
        #expect(try LaunchOptions.parse([], environment: ["DATABASE_URL": ""]).database == .defaultLocation)
        #expect(throws: LaunchOptions.Problem.self) { try LaunchOptions.parse(["--db-connections", "0"]) }
    }

    @Test(
        "The start-up line never shows a PostgreSQL password, whatever the URL's shape",
        arguments: [
            ("postgres://app:s3cret@db:5432/feed", "PostgreSQL postgres://app:…@db:5432/feed"),
            ("postgres://u@db/feed", "PostgreSQL postgres://u@db/feed"),
            ("postgres://u:s3cret@db", "PostgreSQL postgres://u:…@db"),
            ("postgresql://u:s3:cr@et@db/x", "PostgreSQL postgresql://u:…@db/x"),
            ("postgres://db/x?user=u", "PostgreSQL postgres://db/x?user=u"),
        ])
    func hidesPassword(url: String, shown: String) {
        #expect(DatabaseLocation.postgres(url: url).description == shown)
    }

    @Test("sqlite::memory: is refused: each connection would get a database of its own")
    func sqliteMemoryRefused() {
        #expect(DatabaseLocation("sqlite::memory:") == nil)
        #expect(throws: LaunchOptions.Problem.self) { try LaunchOptions.parse(["--database", "sqlite::memory:"]) }
    }
}

extension TakingTurns {
    @Suite("feed-server refuses a database it cannot use", .timeLimit(.minutes(1)))
    struct StartupTests {
        /// The binary built beside the tests.
        static let binary: URL? = {
            guard let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return nil }
            let url = URL(fileURLWithPath: test).deletingLastPathComponent().appendingPathComponent("feed-server")
            return FileManager.default.isExecutableFile(atPath: url.path) ? url : nil
        }()

        struct MissingBinary: Error, CustomStringConvertible {
            init() {}
            var description: String { "feed-server is not built beside the tests; `make test` builds it" }
        }

        /// Runs feed-server with `arguments` until it exits; its status and standard error.
        func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, error: String) {
            guard let binary = Self.binary else { throw MissingBinary() }
            let process = Process()
            process.executableURL = binary
            process.arguments = ["--port", "0", "--public", FormHarness.publicDirectory] + arguments
            process.environment = environment
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        /// Runs feed-server with exactly `arguments`; its status and standard output.
        func printed(_ arguments: [String]) throws -> (status: Int32, text: String) {
            guard let binary = Self.binary else { throw MissingBinary() }
            let process = Process()
            process.executableURL = binary
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return (process.terminationStatus, text)
        }

        /// Starts feed-server on a free port with the seed data in memory,
        /// `--drain drain` and `arguments`; the running process and its port, once it listens.
        static func startServer(drain: String, arguments: [String] = []) throws -> (process: Process, port: Int) {
            let (process, port, _) = try startServer(drain: drain, arguments: arguments, openFiles: nil)
            return (process, port)
        }

        /// `startServer(drain:arguments:)` with at most `openFiles` open files
        /// (soft and hard limit, as `ulimit -n` sets them), and what it said before it listened.
        static func startServer(drain: String, arguments: [String], openFiles: Int?) throws -> (process: Process, port: Int, said: String) {
            guard let binary else { throw MissingBinary() }
            let process = Process()
            let serverArguments =
                ["--port", "0", "--public", FormHarness.publicDirectory, "--database", "memory:", "--quiet", "--drain", drain] + arguments
            if let openFiles {
                process.executableURL = URL(fileURLWithPath: "/bin/sh")
                process.arguments = ["-c", "ulimit -n \(openFiles) && exec \"$0\" \"$@\"", binary.path] + serverArguments
            } else {
                process.executableURL = binary
                process.arguments = serverArguments
            }
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            let listening = /listening on http:\/\/127\.0\.0\.1:(\d+)\//
            var seen = ""
            while seen.firstMatch(of: listening) == nil {
                let chunk = errors.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                seen += String(decoding: chunk, as: UTF8.self)
            }
            let port = try #require(seen.firstMatch(of: listening).flatMap { Int($0.output.1) }, "\(seen)")
            return (process, port, seen)
        }

        @Test("Streams past what the open files leave beside the pages' share are refused with 429; pages are still answered")
        func streamsLeavePagesTheirShare() async throws {
            // 1,600 open files and 2 worker threads: pages keep 1,024 connections, 130 of headroom and 256 for
            // files and the database, which leaves 190 for live streams, not the 1,000 asked for.
            let (process, port, said) = try Self.startServer(
                drain: "0s", arguments: ["--threads", "2", "--live-streams", "1000", "--live-streams-per-user", "1000"], openFiles: 1_600)
            defer {
                process.terminate()
                process.waitUntilExit()
            }
            #expect(said.contains("room for 190 live streams, not the 1000 asked for"), "\(said)")
            let client = LiveClient(port: port)
            let cookie = try await client.signIn("alex", "alex-demo-1")
            let streams = try (0..<190).map { _ in try LiveStreamClient(port: port, path: "/feed/live", cookie: cookie) }
            for stream in streams { #expect(try await stream.waitFor("retry: 1000")) }
            let refused = try LiveStreamClient(port: port, path: "/feed/live", cookie: cookie)
            #expect(try await refused.waitFor("HTTP/1.1 429"), "\(refused.unreadText)")
            #expect(try await client.get("/feed", headers: ["Cookie": cookie]).status == .ok)
        }

        @Test(
            "A database that cannot be used: exit 1 with one line saying why, never a crash on the first request",
            arguments: [
                (["--database", "sqlite:/proc/self/no/such/feed.sqlite"], "cannot"),
                (["--database", "postgres://app@127.0.0.1:1/feed"], "127.0.0.1"),
            ])
        func refuses(arguments: [String], mentions: String) throws {
            let (status, error) = try run(arguments)
            #expect(status == 1)
            let lines = error.split(separator: "\n")
            #expect(lines.count == 1, "\(error)")
            #expect(error.contains(mentions), "\(error)")
        }

        @Test("Asked wrongly (an engine it does not know, a flag, a value): exit 2 with one line saying why")
        func usageErrors() throws {
            for (arguments, mentions) in [
                (["--database", "mysql://app@localhost/feed"], "--database"), (["--verbose"], "--verbose"), (["--threads", "0"], "--threads"),
            ] {
                let (status, error) = try run(arguments)
                #expect(status == 2, "\(arguments)")
                #expect(error.split(separator: "\n").count == 1 && error.contains(mentions), "\(error)")
            }
        }

        @Test("A --public folder that is not there: exit 2 before any database is made")
        func missingPublicFolder() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sectional-start-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let database = directory.appendingPathComponent("feed.sqlite")
            let (status, error) = try run(["--public", directory.appendingPathComponent("Public").path, "--database", "sqlite:" + database.path])
            #expect(status == 2)
            #expect(error.contains("--public"), "\(error)")
            #expect(!FileManager.default.fileExists(atPath: directory.path), "no database, not even its folder")
        }

        @Test("--version prints the version and the commit the binary was built from")
        func version() throws {
            let (status, text) = try printed(["--version"])
            #expect(status == 0)
            // Built in a clone (as the tests are), the commit is known.
            #expect(text.wholeMatch(of: /feed-server \d+\.\d+\.\d+ \(commit [0-9a-f]{12}( with changes)?\)\n/) != nil, "\(text)")
        }

        @Test("--help names the subcommands and what each exit status means")
        func help() throws {
            let (status, text) = try printed(["--help"])
            #expect(status == 0)
            for mention in ["feed-server user add", "feed-server token create", "Exit status", "2 when asked wrongly", "1 when something fails"] {
                #expect(text.contains(mention), "\(mention)")
            }
        }

        @Test("Opened, it serves; SIGTERM stops it with exit 0 (start-up work must not let SIGTERM kill it)")
        func stopsOnSigterm() throws {
            let (process, _) = try Self.startServer(drain: "0s")
            process.terminate()  // SIGTERM
            process.waitUntilExit()
            #expect(process.terminationReason == .exit)
            #expect(process.terminationStatus == 0)
        }

        @Test("A server in memory or on SQLite never loads libpq, nor any TLS or Kerberos library")
        func noLibPQWithoutPostgres() throws {
            let (process, _) = try Self.startServer(drain: "0s")
            defer {
                process.terminate()
                process.waitUntilExit()
            }
            // Read to its end: /proc reports no size, and a sized read stops at the first page.
            let file = try #require(FileHandle(forReadingAtPath: "/proc/\(process.processIdentifier)/maps"))
            let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
            #expect(maps.contains("libsqlite3"), "the maps were read")
            #expect(!maps.contains("libpq"))
            #expect(!maps.contains("libkrb5"))
            // libmicrohttpd is linked in, built without HTTPS.
            #expect(!maps.contains("libgnutls"))
        }

        @Test("An empty database with --no-seed has nobody to show: exit 1, saying how to seed it")
        func noUsers() throws {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sectional-start-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: directory) }
            let (status, error) = try run(["--database", "sqlite:" + directory.appendingPathComponent("x.sqlite").path, "--no-seed"])
            #expect(status == 1)
            #expect(error.contains("without --no-seed"), "\(error)")
        }
    }
}

extension TakingTurns {
    /// A Swift trap ends the whole process: `make run` must not stay down for it.
    @Suite("A section that traps", .timeLimit(.minutes(1)))
    struct TrapTests {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

        /// The processes whose parent is `parent` (from /proc).
        static func children(of parent: Int32) -> [Int32] {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
            return entries.compactMap { entry -> Int32? in
                guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                    let fields = stat.split(separator: ")").last?.split(separator: " "), fields.count > 1, Int32(fields[1]) == parent
                else { return nil }
                return pid
            }
        }

        @Test("ends the process, with its backtrace; make run's runner starts the server again")
        func restarted() async throws {
            guard let binary = StartupTests.binary else { throw StartupTests.MissingBinary() }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = [
                root.appendingPathComponent("scripts/run-restarting.sh").path, binary.path, "--port", "0", "--database", "memory:",
                "--public", FormHarness.publicDirectory, "--quiet", "--drain", "0s", "--simulate", "alerts=trap",
            ]
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            defer {
                // The runner first, so that it starts nothing more; then the server it started.
                let servers = Self.children(of: process.processIdentifier)
                kill(process.processIdentifier, SIGKILL)
                for server in servers { kill(server, SIGTERM) }
                process.waitUntilExit()
            }
            let log = LineReader(errors.fileHandleForReading)
            let first = try #require(try await log.nextListeningPort())
            let cookie = try await onOwnThread {
                let signedIn = try RawHTTPClient(port: first).request(
                    "POST", "/signin", headers: ["Content-Type: application/x-www-form-urlencoded"], body: "name=alex&password=alex-demo-1")
                return try #require(signedIn.header("Set-Cookie")).prefix { $0 != ";" }
            }
            // The page's alerts load traps: no answer, the connection closes.
            let answered = try await onOwnThread { () -> Bool in
                let client = try RawHTTPClient(port: first)
                return (try? client.request("/feed", headers: ["Cookie: \(cookie)"])) != nil
            }
            #expect(!answered)
            let second = try #require(try await log.nextListeningPort())
            #expect(log.text.contains("Fatal error: simulated trap (--simulate)"))
            // The runtime's backtracer names where it trapped, unless turned off (a sanitizer run does).
            if !(ProcessInfo.processInfo.environment["SWIFT_BACKTRACE"] ?? "").contains("enable=no") {
                #expect(log.text.contains("SimulatedFault.apply"), "the backtrace names where it trapped")
            }
            #expect(log.text.contains("starting it again"))
            let health = try await onOwnThread { try RawHTTPClient(port: second).request("/healthz") }
            #expect(health.status == 200)
        }
    }
}

/// Lines of a child's output as they come, read on a thread of their own.
final class LineReader: @unchecked Sendable {
    private let handle: FileHandle
    private let lock = NSLock()
    private var received = ""
    private var consumed = 0

    init(_ handle: FileHandle) { self.handle = handle }

    /// Everything read so far.
    var text: String { lock.withLock { received } }

    /// Reads on until the server says it listens, past what was looked at
    /// before: its port; `nil` at the end of the output, or if nothing comes
    /// for 30 s (a blocked read would outlive the test's time limit).
    func nextListeningPort() async throws -> Int? {
        try await onOwnThread { [self] () -> Int? in
            while true {
                let port = lock.withLock { () -> Int? in
                    let unread = received.dropFirst(consumed)
                    guard let match = unread.firstMatch(of: /listening on http:\/\/127\.0\.0\.1:(\d+)\//) else { return nil }
                    consumed = received.distance(from: received.startIndex, to: match.range.upperBound)
                    return Int(match.output.1)
                }
                if let port { return port }
                var ready = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
                guard poll(&ready, 1, 30_000) > 0 else { return nil }
                let chunk = handle.availableData
                if chunk.isEmpty { return nil }
                lock.withLock { received += String(decoding: chunk, as: UTF8.self) }
            }
        }
    }
}
