import CMicroHTTPD

#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Checks the header fields that decide where a request's body ends, before
/// libmicrohttpd reads any of it, so that no request can be read two ways
/// (request smuggling).
///
/// Two `Content-Length` fields that differ, `Transfer-Encoding` beside
/// `Content-Length`, a transfer coding other than chunked, and a field name
/// with a space or separator in it (`Content-Length : 5` is not a length to
/// some servers, but is to some proxies) are each a 400 here (RFC 9112 §6.1,
/// §6.3, §5.1), answered before the body, so libmicrohttpd closes the
/// connection. libmicrohttpd 1.0 at client discipline 1 refuses most of these
/// itself but reads the first of two lengths; 0.9.75 refused none. (Folded
/// fields and an HTTP/1.1 request without `Host` never get here: the daemons
/// run at client discipline 1, where libmicrohttpd refuses both.)
///
/// The same scan refuses a second `Host` field or a malformed one (RFC 9112
/// §3.2), reads the declared body length without overflowing, and
/// notes `Expect`, so a request that cannot succeed is refused before
/// libmicrohttpd sends `100 Continue` or reads its body. It also collects
/// the fields for the handler: the head is read once.
enum RequestFraming {
    /// Scans the request's header fields once.
    static func scan(_ connection: OpaquePointer) -> Scan {
        var scan = Scan()
        // Room for most requests' fields: grown one at a time, they were four
        // allocations. Not more: an open live stream keeps its request, and
        // 1 KiB each read 0.5 kB more a stream idle at 10,000 streams.
        scan.headers.reserveCapacity(16, bytes: 512)
        withUnsafeMutablePointer(to: &scan) { pointer in
            _ = MHD_get_connection_values_n(connection, .HEADER_KIND, inspect, pointer)
        }
        return scan
    }

    /// What the scan found, filled field by field.
    struct Scan {
        var problem: String?
        var contentLengths = 0
        var contentLengthsDiffer = false
        var firstContentLength: [UInt8] = []
        var transferEncodings = 0
        var transferEncodingIsChunked = true
        var hosts = 0
        var hostIsMalformed = false
        /// The `Expect` value, lowercased, when there is one.
        var expectation: String?
        /// Every field, in order (complete unless `problem` is set).
        var headers = HTTPHeaders()

        /// The declared length: `nil` without `Content-Length`, `UInt64.max` when it overflows.
        var contentLength: UInt64? {
            guard contentLengths > 0 else { return nil }
            var value: UInt64 = 0
            for digit in firstContentLength {
                let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
                let (sum, carry) = times10.addingReportingOverflow(UInt64(digit - 0x30))
                if overflow || carry { return .max }
                value = sum
            }
            return value
        }

        /// Whether the request says it has a body: a length above zero, or a transfer coding.
        var declaresBody: Bool { transferEncodings > 0 || (contentLength ?? 0) > 0 }

        mutating func add(name field: UnsafeBufferPointer<UInt8>, value valueBytes: UnsafeBufferPointer<UInt8>) {
            guard !field.isEmpty, field.allSatisfy(RequestFraming.isTokenByte) else {
                problem = "A header field name is malformed (spaces and separators are not allowed in it)."
                return
            }
            // Field values hold visible characters, spaces and tabs only: no bare CR.
            if RequestFraming.holdsControlByte(valueBytes) {
                problem = "A header field value holds a control character."
                return
            }
            if RequestFraming.equalsIgnoringCase(field, "content-length") {
                contentLengths += 1
                let trimmed = Array(valueBytes).trimmingSpaces
                if contentLengths == 1 { firstContentLength = trimmed } else if trimmed != firstContentLength { contentLengthsDiffer = true }
                if trimmed.isEmpty || !trimmed.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                    problem = "The Content-Length is not a number."
                }
            } else if RequestFraming.equalsIgnoringCase(field, "transfer-encoding") {
                transferEncodings += 1
                let trimmed = Array(valueBytes).trimmingSpaces
                if !trimmed.withUnsafeBufferPointer({ RequestFraming.equalsIgnoringCase($0, "chunked") }) {
                    transferEncodingIsChunked = false
                }
            } else if RequestFraming.equalsIgnoringCase(field, "host") {
                hosts += 1
                // A host and port only: no spaces, paths, user information or fragments.
                if valueBytes.contains(where: RequestFraming.isNotInHost) { hostIsMalformed = true }
            } else if RequestFraming.equalsIgnoringCase(field, "expect") {
                expectation = String(decoding: Array(valueBytes).trimmingSpaces, as: UTF8.self).lowercased()
            }
            headers.add(name: field, value: valueBytes)
        }

        /// What makes the request unreadable or ambiguous, or `nil`.
        func problem(isHTTP10: Bool) -> String? {
            if let problem { return problem }
            if contentLengthsDiffer { return "The request has two different Content-Length fields." }
            if transferEncodings > 0 && contentLengths > 0 { return "The request has both Content-Length and Transfer-Encoding." }
            if transferEncodings > 1 || !transferEncodingIsChunked { return "The only transfer coding accepted is chunked, once." }
            // HTTP/1.0 has no transfer codings: a 1.0 intermediary would see no body (RFC 9112 §6.1).
            if transferEncodings > 0 && isHTTP10 { return "An HTTP/1.0 request cannot use Transfer-Encoding." }
            if hosts > 1 { return "The request has more than one Host field." }
            if hostIsMalformed { return "The Host field is not a host and port." }
            return nil
        }
    }

    // Handed each field with its lengths: no `strlen` of either.
    private static let inspect: MHD_KeyValueIteratorN = { cls, _, name, nameCount, value, valueCount in
        guard let cls, let name else { return .YES }
        let scan = cls.assumingMemoryBound(to: Scan.self)
        scan.pointee.add(name: bytes(name, nameCount), value: value.map { bytes($0, valueCount) } ?? UnsafeBufferPointer(start: nil, count: 0))
        if scan.pointee.problem != nil {
            return .NO
        }
        return .YES
    }

    private static func bytes(_ text: UnsafePointer<CChar>, _ count: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// A space, tab, `/`, `?`, `#`, `@` or `\\`: what a host and port never hold.
    static func isNotInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x20, 0x09, UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"), UInt8(ascii: "@"), UInt8(ascii: "\\"): true
        default: false
        }
    }

    /// Whether `bytes` hold a control character other than a tab, or DEL: what a
    /// field value may not. Tested eight bytes at a time (a cookie is a hundred
    /// bytes, and byte by byte its test cost more than the rest of its field's
    /// checks); only a word that may hold one is read byte by byte.
    static func holdsControlByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        guard let base = bytes.baseAddress else { return false }
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(base).loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // A byte below 0x20 or equal to 0x7F (Hacker's Delight 6-1): a tab is such a byte
            // too, and sends the word to the exact test.
            let below20 = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
            let del = word ^ 0x7F7F_7F7F_7F7F_7F7F
            let isDEL = (del &- 0x0101_0101_0101_0101) & ~del & 0x8080_8080_8080_8080
            if below20 | isDEL != 0, bytes[index..<(index + 8)].contains(where: isControl) { return true }
            index += 8
        }
        return bytes[index...].contains(where: isControl)
    }

    /// `tchar` of RFC 9110 §5.6.2: letters, digits and ``!#$%&'*+-.^_`|~``.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"), UInt8(ascii: "'"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "^"), UInt8(ascii: "_"),
            UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Whether `bytes` spell `lowercase` in any case (ASCII).
    static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        bytes.count == lowercase.utf8CodeUnitCount && startsIgnoringCase(bytes, lowercase)
    }

    /// Whether `bytes` begin with `lowercase` in any case (ASCII).
    static func startsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        guard bytes.count >= lowercase.utf8CodeUnitCount else { return false }
        let expected = lowercase.utf8Start
        return (0..<lowercase.utf8CodeUnitCount).allSatisfy { index in
            let byte = bytes[index]
            return (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) == expected[index]
        }
    }
}

private extension Array where Element == UInt8 {
    var trimmingSpaces: [UInt8] {
        var slice = self[...]
        while let first = slice.first, first == 0x20 || first == 0x09 { slice = slice.dropFirst() }
        while let last = slice.last, last == 0x20 || last == 0x09 { slice = slice.dropLast() }
        return Array(slice)
    }
}
