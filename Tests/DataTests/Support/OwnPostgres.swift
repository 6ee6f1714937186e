import Foundation

/// A throw-away PostgreSQL for a test run that was given none (`swift test`
/// alone, not `make test`): `scripts/with-postgres.sh` started once, kept
/// waiting on its standard input. When the test process ends, however it
/// ends, that input closes, and the script stops the cluster and removes it.
enum OwnPostgres {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The URL of its `postgres` database, or why there is none.
    static let url: Result<String, Unavailable> = start()

    /// The script and the pipe it waits on: written once, by `start()`, and
    /// only so that neither is released before the process ends.
    nonisolated(unsafe) private static var held: (Process, Pipe)?

    private static func start() -> Result<String, Unavailable> {
        let script = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/with-postgres.sh")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [script.path, "bash", "-c", #"echo "$SECTIONAL_TEST_POSTGRES"; exec cat >/dev/null"#]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        (process.standardInput, process.standardOutput, process.standardError) = (input, output, errors)
        do {
            try process.run()
        } catch {
            return .failure(Unavailable(description: "scripts/with-postgres.sh could not be started: \(error)"))
        }
        var line = Data()
        while let byte = try? output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != UInt8(ascii: "\n") {
            line.append(first)
        }
        guard let url = String(data: line, encoding: .utf8), url.hasPrefix("postgres://") else {
            process.waitUntilExit()
            let why = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let need = "make test starts one; so does swift test where PostgreSQL is installed"
            return .failure(Unavailable(description: "no PostgreSQL for the tests (\(need)): \(why)"))
        }
        held = (process, input)
        return .success(url)
    }
}
