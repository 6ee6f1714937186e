import SectionalAccounts
import SectionalSecurity

/// `feed-server user …` and `feed-server token …`: accounts managed from
/// the server's own command line, on the database the server uses.
public enum AdminCommand {
    /// What a command prints and its exit status.
    public struct Outcome: Equatable, Sendable {
        public var output: [String] = []
        public var errors: [String] = []
        public var status: Int32 = 0
    }

    static let help = [
        "user": """
        Usage: feed-server user add NAME [--display-name TEXT] [--database URL]   (the password is read from standard input)
               feed-server user passwd NAME [--database URL]                     (the new password from standard input)
               feed-server user list [--database URL]
        """,
        "token": """
        Usage: feed-server token create USER [--label TEXT] [--database URL]   (prints the token once; keep it)
               feed-server token revoke ID [--database URL]
               feed-server token list [--database URL]
        Scripts send it as: curl -H "Authorization: Bearer TOKEN" localhost:8080/api/feed/sections
        """,
    ]

    /// Whether `arguments` (without the program name) are an admin command.
    public static func handles(_ arguments: [String]) -> Bool { ["user", "token"].contains(arguments.first ?? "") }

    /// Runs the command. `readLine` gives standard input's next line (the password).
    public static func run(
        _ arguments: [String], environment: [String: String], readLine: @Sendable () -> String?, hasher: PasswordHasher = PasswordHasher(),
        now: @escaping @Sendable () -> Int = unixNow
    ) async -> Outcome {
        var outcome = Outcome()
        let group = arguments.first ?? ""
        var words: [String] = []
        var options: [String: String] = [:]
        var remaining = arguments.dropFirst()[...]
        while let word = remaining.popFirst() {
            if word == "--help" || word == "-h" {
                outcome.output = [help[group] ?? ""]
                return outcome
            }
            if word.hasPrefix("--") {
                guard ["--database", "--label", "--display-name"].contains(word) else { return usage(group, "unknown flag '\(word)'") }
                guard let value = remaining.popFirst() else { return usage(group, "\(word) needs a value") }
                options[word] = value
            } else {
                words.append(word)
            }
        }
        var location = DatabaseLocation.defaultLocation
        if let text = options["--database"] ?? environment["DATABASE_URL"].flatMap({ $0.isEmpty ? nil : $0 }) {
            guard let parsed = DatabaseLocation(text) else { return usage(group, "'\(text)' is not sqlite:PATH, postgres://… or memory:") }
            location = parsed
        }
        let data: AppData
        do {
            // Never seeds: an admin command on an empty database must not add the demo users.
            data = try await AppData.open(location, connections: 1, seed: false, hasher: hasher)
        } catch {
            return failure("\(error)")
        }
        defer { data.pool?.close() }
        let store = data.accounts
        do {
            switch (group, words.first, words.count) {
            case ("user", "add", 2):
                let name = words[1]
                guard isValidName(name) else { return usage(group, "a user name is 1-64 letters, digits, '.', '-' or '_'") }
                if let display = options["--display-name"], display.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                    return usage(group, "a display name holds no control characters")
                }
                guard let password = readLine(), password.count >= 8 else {
                    return failure("the password (standard input) must be at least 8 characters")
                }
                guard
                    let user = try await store.addUser(
                        name: name, displayName: options["--display-name"] ?? name, passwordHash: try hasher.hash(password))
                else {
                    return failure("a user named '\(name)' exists already")
                }
                outcome.output = ["added user \(user.name) (id \(user.id))"]
            case ("user", "passwd", 2):
                guard let password = readLine(), password.count >= 8 else {
                    return failure("the password (standard input) must be at least 8 characters")
                }
                guard try await store.setPasswordHash(try hasher.hash(password), forUserNamed: words[1]) else {
                    return failure("no user is named '\(words[1])'")
                }
                outcome.output = ["changed the password of \(words[1])"]
            case ("user", "list", 1):
                outcome.output = try await store.users().map { "\($0.id)\t\($0.name)\t\($0.displayName)" }
            case ("token", "create", 2):
                guard let user = try await store.user(named: words[1])?.user else { return failure("no user is named '\(words[1])'") }
                let token = SecretToken.generate()
                let id = try await store.createAPIToken(
                    tokenHash: SecretToken.hash(token), user: user.id, label: options["--label"] ?? "", now: now())
                outcome.output = [token]
                outcome.errors = ["token \(id) for \(user.name); it is shown only now"]
            case ("token", "revoke", 2):
                guard let id = Int(words[1]) else { return usage(group, "'\(words[1])' is not a token id (see: feed-server token list)") }
                guard try await store.revokeAPIToken(id: id) else { return failure("no active token has id \(id)") }
                outcome.output = ["revoked token \(id)"]
            case ("token", "list", 1):
                outcome.output = try await store.apiTokens().map {
                    "\($0.id)\t\($0.userName)\t\($0.revoked ? "revoked" : "active")\t\($0.label)"
                }
            default:
                return usage(group, words.isEmpty ? "which command?" : "'\(words.joined(separator: " "))' is not a command")
            }
        } catch {
            return failure("\(error)")
        }
        return outcome
    }

    private static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.count) && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-".contains($0)) }
    }

    private static func usage(_ group: String, _ problem: String) -> Outcome {
        Outcome(errors: ["feed-server \(group): \(problem) (see feed-server \(group) --help)"], status: 2)
    }

    private static func failure(_ problem: String) -> Outcome {
        Outcome(errors: ["feed-server: \(problem)"], status: 1)
    }
}
