import CSodium
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Argon2id password hashes (libsodium's `crypto_pwhash_str`): salted,
/// memory-hard, and self-describing, so a stronger setting later still
/// verifies the old hashes.
///
/// Hashing is slow on purpose (about 0.1 s and 64 MiB at `.interactive`):
/// call it on a thread that may block, never on a server thread.
public final class PasswordHasher: Sendable {
    /// How much work a hash takes.
    public enum Strength: Sendable {
        /// libsodium's interactive limits: for sign-in.
        case interactive
        /// The least libsodium allows: still Argon2id, for tests only.
        case minimal
    }

    private let operations: UInt64
    private let memory: Int
    /// A hash of nothing anyone knows: an unknown user's sign-in is verified
    /// against it, so it takes as long as a wrong password does. Made by the
    /// first verification of either kind, not by `init`: were only an unknown
    /// user's check to make it, the first unknown name would take twice as long.
    private let decoy = Mutex<String?>(nil)
    /// Where verifications off the caller's thread wait their turn.
    public let line: CheckLine

    /// A hasher of `strength`, checking at most `concurrentLimit` passwords at once (default: twice the cores).
    public init(_ strength: Strength = .interactive, concurrentLimit: Int = 2 * max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))) {
        Sodium.ready()
        line = CheckLine(capacity: concurrentLimit)
        switch strength {
        case .interactive:
            (operations, memory) = (UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive())
        case .minimal:
            (operations, memory) = (UInt64(crypto_pwhash_opslimit_min()), crypto_pwhash_memlimit_min())
        }
    }

    /// The encoded hash (`$argon2id$v=19$…`) of `password`.
    /// - Throws: `PasswordHashingFailed` when libsodium cannot allocate its memory.
    public func hash(_ password: String) throws(PasswordHashingFailed) -> String {
        guard let hash = Self.hash(password, operations: operations, memory: memory) else { throw PasswordHashingFailed() }
        return hash
    }

    /// Whether `password` is the one `hash` was made from. With no hash (an
    /// unknown user) the password is checked against a decoy: `false`, in
    /// about the same time.
    public func verify(_ password: String, against hash: String?) -> Bool {
        let decoy = decoyHash()
        let matches = crypto_pwhash_str_verify(hash ?? decoy, password, UInt64(password.utf8.count)) == 0
        return hash != nil && matches
    }

    private func decoyHash() -> String {
        decoy.withLock { decoy in
            if let decoy { return decoy }
            // A failure (no memory) is not kept: the next check tries again.
            guard let made = Self.hash(Hex.encode(FormGuard.newKey()), operations: operations, memory: memory) else { return "" }
            decoy = made
            return made
        }
    }

    private static func hash(_ password: String, operations: UInt64, memory: Int) -> String? {
        var out = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        // A Swift string passes as a NUL-terminated C string; the length excludes the NUL.
        let status = crypto_pwhash_str(&out, password, UInt64(password.utf8.count), operations, memory)
        guard status == 0 else { return nil }
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// libsodium could not hash: it could not allocate the memory Argon2id needs.
public struct PasswordHashingFailed: Error, CustomStringConvertible {
    /// One line for the log.
    public var description: String { "the password could not be hashed (out of memory?)" }
}

extension PasswordHasher {
    /// `verify(_:against:)` on a thread of its own: Argon2id's 0.1 s of CPU
    /// must not hold a server thread or one of Swift's cooperative threads.
    /// It waits its turn in `line` (each check takes 64 MiB at
    /// `.interactive`), shared fairly between accounts and clients; `nil`
    /// when the line refuses it, so a flood costs neither memory nor threads.
    public func verifyOffThread(_ password: String, against hash: String?, account: String, client: String) async -> Bool? {
        guard await line.enter(account: account, client: client) else { return nil }
        return await withCheckedContinuation { continuation in
            DetachedThread.start { [self] in
                let matches = verify(password, against: hash)
                line.leave()
                continuation.resume(returning: matches)
            }
        }
    }
}

/// A system thread for one piece of blocking work.
enum DetachedThread {
    private final class Start: Sendable {
        let body: @Sendable () -> Void
        init(_ body: @escaping @Sendable () -> Void) { self.body = body }
    }

    static func start(_ body: @escaping @Sendable () -> Void) {
        let start = Unmanaged.passRetained(Start(body)).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(
            &thread, nil,
            { raw in
                Unmanaged<Start>.fromOpaque(raw!).takeRetainedValue().body()
                return nil
            }, start)
        precondition(result == 0, "pthread_create failed: \(result)")
        pthread_detach(thread)
    }
}
