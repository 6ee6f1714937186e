/// Entity tags: what a conditional GET compares (`ETag`, `If-None-Match`).
public enum EntityTag {
    /// A strong tag of `bytes`' content, the same in every process and on
    /// every replica: 128 bits of two word-at-a-time hashes, eight bytes a
    /// step (a page is a few kilobytes; a byte at a time cost microseconds).
    /// A cache validator, not a secret.
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        var first: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(bytes.count)
        var second: UInt64 = 0x9e37_79b9_7f4a_7c15 &+ UInt64(bytes.count)
        var index = 0
        if let base = bytes.baseAddress {
            while index + 8 <= bytes.count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                first = (first ^ word) &* 0x100_0000_01b3
                first ^= first >> 29
                second = (second &+ word) &* 0xff51_afd7_ed55_8ccd
                second ^= second >> 32
                index += 8
            }
        }
        while index < bytes.count {
            first = (first ^ UInt64(bytes[index])) &* 0x100_0000_01b3
            second = (second &+ UInt64(bytes[index])) &* 0xc4ce_b9fe_1a85_ec53
            index += 1
        }
        return "\"" + hex(first) + hex(second) + "\""
    }

    /// Whether an `If-None-Match` value names `tag` (weak comparison, as a GET may) or is `*`.
    public static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            var named = candidate.trimmingSpaces
            if named == "*" { return true }
            if named.hasPrefix("W/") { named = named.dropFirst(2) }
            return named == tag
        }
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

extension Response {
    /// The answer to a GET whose body is in memory, made conditional: its
    /// content's tag in `ETag`, and a `304` with no body when the request's
    /// `If-None-Match` names it already. `cacheControl` goes on both.
    public consuming func validated(for request: Request, cacheControl: String) -> Response {
        let tag: String
        switch body {
        case .bytes(let bytes): tag = bytes.withUnsafeBufferPointer(EntityTag.of)
        case .buffer(let buffer): tag = buffer.withBytes(EntityTag.of)
        case .file, .stream: return consume self
        }
        headers["ETag"] = tag
        headers["Cache-Control"] = cacheControl
        if status == .ok, let asked = request.headers["If-None-Match"], EntityTag.matches(asked, tag) {
            status = .notModified
            body = .bytes([])
        }
        return consume self  // `Response` says why
    }
}
