import Synchronization

/// `SecretToken.hash(ofWellFormed:)`, remembered for the tokens seen lately.
///
/// A signed-in visitor sends the same session token with every request,
/// and hashing it (BLAKE2b, then hex) cost about 2,400 instructions a page,
/// more than any section's markup; found here it costs a few hundred.
///
/// The tokens of recent visits stay in memory, as the requests that carried
/// them did: a process whose memory can be read gives them up either way.
/// At most `capacity` are kept; past that the memo starts empty again (a
/// token's hash never changes, so forgetting is the only upkeep).
public final class SecretTokenMemo: Sendable {
    /// A token's 64 bytes as eight words: hashed and compared without a string made of it.
    private struct Key: Hashable {
        let words: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64)

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            let raw = UnsafeRawBufferPointer(bytes)
            func word(_ index: Int) -> UInt64 { raw.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self) }
            words = (word(0), word(1), word(2), word(3), word(4), word(5), word(6), word(7))
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            withUnsafeBytes(of: lhs.words) { left in withUnsafeBytes(of: rhs.words) { left.elementsEqual($0) } }
        }

        // Word by word: as 64 bytes, `combine(bytes:)` took twice as long.
        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
            hasher.combine(words.4)
            hasher.combine(words.5)
            hasher.combine(words.6)
            hasher.combine(words.7)
        }
    }

    private let hashes = Mutex<[Key: String]>([:])
    /// How many tokens are kept at most.
    public let capacity: Int

    /// A memo of at most `capacity` tokens' hashes.
    public init(capacity: Int = 1024) {
        precondition(capacity > 0, "a memo keeps at least one token")
        self.capacity = capacity
    }

    /// `SecretToken.hash(ofWellFormed:)` of `bytes`: `nil` for anything
    /// without a token's form, else its hash, worked out once per token.
    public func hash(ofWellFormed bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard bytes.count == SecretToken.length else { return nil }
        // Only a well-formed token is ever kept, so a token found is one.
        let key = Key(bytes)
        if let known = hashes.withLock({ $0[key] }) { return known }
        guard let hash = SecretToken.hash(ofWellFormed: bytes) else { return nil }
        hashes.withLock { hashes in
            if hashes.count >= capacity { hashes.removeAll(keepingCapacity: true) }
            hashes[key] = hash
        }
        return hash
    }

    /// How many tokens' hashes are kept now.
    public var count: Int { hashes.withLock(\.count) }
}
