/// A seeded hash of strings, eight bytes a step, for the dictionaries a
/// request looks up (the routes, the answers kept): `Hasher` runs SipHash,
/// which took about 700 instructions for a session token's 64 bytes.
///
/// It hashes bytes, so a key hashed with it must compare its strings by
/// their bytes too (`sameBytes(_:_:)`), not as `String`'s `==` does (which
/// finds `é` and `e` with a combining accent equal): equal keys must hash alike.
/// Not a cryptographic hash: each word is mixed by a full 128-bit product
/// with a secret drawn at random in each process, so that collisions are
/// not easily planned from outside.
package struct QuickHash {
    private static let secret = UInt64.random(in: .min ... .max)
    package private(set) var value = QuickHash.secret ^ 0x9e37_79b9_7f4a_7c15

    package init() {}

    package mutating func add(_ text: String) {
        text.withUTF8Bytes { add($0) }
    }

    package mutating func add(_ number: Int) { mix(UInt64(bitPattern: Int64(number))) }

    package mutating func add(_ bytes: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(bytes)
        var offset = 0
        while offset &+ 8 <= raw.count {
            mix(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset &+= 8
        }
        // The last few bytes and the length in one word: "ab" then "c" is not "a" then "bc".
        var last = UInt64(raw.count) &<< 56
        var shift: UInt64 = 0
        while offset < raw.count {
            last |= UInt64(raw[offset]) &<< shift
            shift &+= 8
            offset &+= 1
        }
        mix(last)
    }

    private mutating func mix(_ word: UInt64) {
        let product = (word ^ Self.secret).multipliedFullWidth(by: value ^ 0xe703_7ed1_a0b4_28db)
        value = product.high ^ product.low
    }

    /// Whether `a` and `b` hold the same bytes: equality for keys hashed with `QuickHash`.
    package static func sameBytes(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        return a.withUTF8Bytes { a in b.withUTF8Bytes { b in a.sameBytes(as: b) } }
    }
}
