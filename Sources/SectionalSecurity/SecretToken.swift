import CSodium

/// Random bearer secrets (session cookies, API tokens) and the hashes that
/// are stored in their place: a stolen database holds no usable token.
public enum SecretToken {
    /// 256 random bits, as 64 hex digits.
    public static func generate() -> String { Hex.encode(FormGuard.newKey()) }

    /// What the database keeps for `token`: its BLAKE2b hash, as hex. No
    /// salt is needed: the token itself is 256 random bits.
    public static func hash(_ token: String) -> String {
        var token = token
        return token.withUTF8(hash(bytes:))
    }

    /// `hash(_:)` of a token's bytes if they have a token's form, else `nil`:
    /// a session cookie's token, checked and hashed where the request holds
    /// it, with no string made of it (this runs on every signed-in request).
    public static func hash(ofWellFormed bytes: UnsafeBufferPointer<UInt8>) -> String? {
        isWellFormed(bytes) ? hash(bytes: bytes) : nil
    }

    private static func hash(bytes: UnsafeBufferPointer<UInt8>) -> String {
        Sodium.ready()
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { out in
            _ = crypto_generichash(out.baseAddress!, out.count, bytes.baseAddress, UInt64(bytes.count), nil, 0)
            return Hex.encode(UnsafeBufferPointer(out))
        }
    }

    /// Whether `text` has a token's form; anything else is refused unhashed.
    public static func isWellFormed(_ text: String) -> Bool {
        // Checked in place, on the bytes (decoding made two arrays; walking
        // the UTF-8 view cost 40 instructions a byte).
        var text = text
        return text.withUTF8(isWellFormed)
    }

    /// How long a token is: 64 hex digits.
    static let length = 64

    /// Whether `bytes` have a token's form: 64 hex digits of either case.
    public static func isWellFormed(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count == length, let base = bytes.baseAddress else { return false }
        // Every signed-in request checks its cookie's token, eight bytes at a
        // time: a byte at a time it cost 540 instructions of a `304`'s 80,000.
        return stride(from: 0, to: length, by: 8).allSatisfy { offset in
            Hex.areDigits(UnsafeRawPointer(base).loadUnaligned(fromByteOffset: offset, as: UInt64.self))
        }
    }
}
