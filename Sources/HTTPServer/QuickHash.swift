/// A seeded hash of strings, eight bytes a step, for the dictionaries a
/// request looks up (the routes, the answers kept): `Hasher` runs SipHash,
/// which took about 700 instructions for a session token's 64 bytes. This
/// is not a cryptographic hash; its seed is random in each process, so its
/// collisions cannot be planned from outside.
package struct QuickHash {
    private static let seed = UInt64.random(in: .min ... .max)
    package private(set) var value = QuickHash.seed

    package init() {}

    package mutating func add(_ text: String) {
        var text = text
        text.withUTF8 { add($0) }
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
        value = (value ^ word) &* 0x9e37_79b9_7f4a_7c15
        value ^= value &>> 29
    }
}
