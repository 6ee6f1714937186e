/// The environment and a configuration file, read as the flags they stand
/// for, so that one parser checks every source alike: `SECTIONAL_SESSION_IDLE=2h`
/// and a file's `session-idle = 2h` are both `--session-idle 2h`.
enum ConfigurationSources {
    /// Flags that take no value: true, yes, on or 1 gives the flag; false, no, off or 0 leaves it out.
    static let switches: Set<String> = ["--quiet", "--no-stream", "--no-seed"]
    /// Flags that may be given more than once: a source lists their values with commas.
    static let repeatable: Set<String> = ["--trusted-proxy", "--simulate"]
    /// Flags that take one value.
    static let single: Set<String> = [
        "--host", "--port", "--public", "--threads", "--database", "--db-connections", "--head-timeout", "--section-timeout",
        "--session-idle", "--session-lifetime", "--drain", "--metrics-port", "--metrics-host", "--log-format", "--log-level", "--live-streams",
        "--live-streams-per-user", "--environment", "--section-cache", "--post-limit",
    ]
    /// Variables of the environment that are not options.
    static let otherVariables: Set<String> = ["SECTIONAL_CONFIG", "SECTIONAL_TEST_POSTGRES", "SECTIONAL_ENV"]
    /// The variables platforms set by convention, standing for these flags.
    static let conventional = ["PORT": "--port", "DATABASE_URL": "--database", "SECTIONAL_ENV": "--environment"]

    typealias Problem = LaunchOptions.Problem

    /// A command-line word, and where it came from, for problems to name.
    struct Word {
        var text: String
        var source: String
        init(_ text: String, from source: String) {
            self.text = text
            self.source = source
        }
    }

    /// The flags `SECTIONAL_*` variables (and `PORT`, `DATABASE_URL`) stand for, in a stable order;
    /// an empty variable is unset, as `docker run -e PORT=` leaves it.
    static func flags(inEnvironment environment: [String: String]) throws(Problem) -> [Word] {
        var flags: [Word] = []
        for (variable, flag) in conventional.sorted(by: { $0.key < $1.key }) {
            if let value = environment[variable], !value.isEmpty { flags += [Word(flag, from: variable), Word(value, from: variable)] }
        }
        for (variable, value) in environment.sorted(by: { $0.key < $1.key })
        where variable.hasPrefix("SECTIONAL_") && !otherVariables.contains(variable) && !value.isEmpty {
            let flag = "--" + String(variable.dropFirst("SECTIONAL_".count).lowercased().map { $0 == "_" ? "-" : $0 })
            flags += try self.flags(flag, value, from: variable)
        }
        return flags
    }

    /// The flags of a configuration file: a `name = value` line each (the
    /// name a flag's without its dashes), blank lines and `#` comments aside.
    static func flags(inFile text: String) throws(Problem) -> [Word] {
        var flags: [Word] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: " \t\r")
            guard !content.isEmpty else { continue }
            let parts = content.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: " \t") }
            guard parts.count == 2, !parts[0].isEmpty else {
                throw .invalidValue(flag: "--config", value: "line \(number + 1): \(content)", expected: "name = value")
            }
            flags += try self.flags("--" + parts[0], parts[1], from: "\(parts[0]) (line \(number + 1) of the configuration)")
        }
        return flags
    }

    /// `flag` given `value` by `source`, as command-line words.
    private static func flags(_ flag: String, _ value: String, from source: String) throws(Problem) -> [Word] {
        if switches.contains(flag) {
            switch value.lowercased() {
            case "true", "yes", "on", "1": return [Word(flag, from: source)]
            case "false", "no", "off", "0": return []
            default: throw .invalidValue(flag: source, value: value, expected: "true or false")
            }
        }
        if repeatable.contains(flag) {
            return value.split(separator: ",").flatMap { [Word(flag, from: source), Word($0.trimmingCharacters(in: " "), from: source)] }
        }
        guard single.contains(flag) else { throw .unknownSetting(source) }
        return [Word(flag, from: source), Word(value, from: source)]
    }
}

extension StringProtocol {
    /// Without the characters of `set` at either end.
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
