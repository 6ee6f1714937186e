/// Entity tags: what a conditional GET compares (`ETag`, `If-None-Match`).
public enum EntityTag {
    /// A strong tag of `bytes`' content, the same in every process and on
    /// every replica: 128 bits of two word-at-a-time hashes, sixteen bytes a
    /// step (a page is a few kilobytes: a byte at a time, or a string made
    /// per digit, cost several thousand instructions a request).
    /// A cache validator, not a secret.
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        let raw = UnsafeRawBufferPointer(bytes)
        var first: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(raw.count)
        var second: UInt64 = 0x9e37_79b9_7f4a_7c15 &+ UInt64(raw.count)
        // Each half takes every other word: half the work of both taking
        // every word (10,800 instructions of a 5.9 KB page). Each step is a
        // bijection of its half's state, so a change of any one word still
        // changes the tag.
        let pairs = raw.count & ~15
        var offset = 0
        while offset < pairs {
            let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let next = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
            first = (first ^ word) &* 0x100_0000_01b3
            first ^= first &>> 29
            second = (second ^ next) &* 0xff51_afd7_ed55_8ccd
            second ^= second &>> 32
            offset &+= 16
        }
        while offset < raw.count {
            let byte = UInt64(raw[offset])
            first = (first ^ byte) &* 0x100_0000_01b3
            second = (second &+ byte) &* 0xc4ce_b9fe_1a85_ec53
            offset &+= 1
        }
        // Quotes and 32 hex digits, written in place: one string made.
        return String(unsafeUninitializedCapacity: 34) { text in
            let digits: StaticString = "0123456789abcdef"
            text[0] = UInt8(ascii: "\"")
            for index in 0..<16 {
                let shift = UInt64(60 &- 4 &* index)
                text[1 &+ index] = digits.utf8Start[Int((first &>> shift) & 0xf)]
                text[17 &+ index] = digits.utf8Start[Int((second &>> shift) & 0xf)]
            }
            text[33] = UInt8(ascii: "\"")
            return 34
        }
    }

    /// Whether an `If-None-Match` value names `tag` (weak comparison, as a GET may) or is `*`.
    public static func matches(_ ifNoneMatch: String, _ tag: String) -> Bool {
        var asked = ifNoneMatch
        return asked.withUTF8 { matches($0, tag) }
    }

    /// Whether `request` asks for `tag` to be confirmed: its `If-None-Match` names it or is `*`.
    public static func isConfirmed(_ tag: String, by request: Request) -> Bool {
        request.headers.withValue(of: "If-None-Match") { matches($0, tag) } ?? false
    }

    /// `matches(_:_:)` on the field's bytes, as the request lends them (`HTTPHeaders.withValue(of:_:)`).
    public static func matches(_ list: UnsafeBufferPointer<UInt8>, _ tag: String) -> Bool {
        var tag = tag
        return tag.withUTF8 { tag in
            // A browser sends back the one tag it has: compared whole first, then as a list, a byte at a
            // time (split into substrings and trimmed as characters, it cost 17,000 instructions a 304).
            if list.sameBytes(as: tag) { return true }
            var start = 0
            while start < list.count {
                var end = start
                while end < list.count && list[end] != UInt8(ascii: ",") { end += 1 }
                var first = start, last = end
                while first < last && (list[first] == UInt8(ascii: " ") || list[first] == UInt8(ascii: "\t")) { first += 1 }
                while last > first && (list[last - 1] == UInt8(ascii: " ") || list[last - 1] == UInt8(ascii: "\t")) { last -= 1 }
                if last - first == 1 && list[first] == UInt8(ascii: "*") { return true }
                if last - first >= 2 && list[first] == UInt8(ascii: "W") && list[first + 1] == UInt8(ascii: "/") { first += 2 }
                if UnsafeBufferPointer(rebasing: list[first..<last]).sameBytes(as: tag) { return true }
                start = end + 1
            }
            return false
        }
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
        headers.add("ETag", tag)  // an answer in memory has none yet
        headers["Cache-Control"] = cacheControl
        if status == .ok, EntityTag.isConfirmed(tag, by: request) {
            status = .notModified
            body = .bytes([])
        }
        return consume self  // `Response` says why
    }
}
