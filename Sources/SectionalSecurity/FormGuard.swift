import CSodium
import HTTPServer

/// What keeps another site from writing through a signed-in visitor's
/// browser: a `POST` must come from this site (`Sec-Fetch-Site`, `Origin`)
/// and carry a token this server signed for that form and that user.
///
/// A token is a 128-bit MAC (SipHash-2-4, libsodium's
/// `crypto_shorthash_siphashx24`), under a key derived from the server's
/// secret, of the form's action and the subject (the user): it needs no
/// storage, every replica sharing the secret accepts it, and it is good for
/// that form and user only. SipHash, a PRF made for short inputs, because a
/// page signs a token per form: a token cost about 14,000 instructions with
/// HMAC-SHA256, 3,800 with keyed BLAKE2b (two compressions) and 550 with SipHash.
public struct FormGuard: Sendable {
    /// The form field that carries the token.
    public static let fieldName = "token"
    /// SipHash's key, derived from the secret.
    private let macKey: [UInt8]

    /// How long a secret is, in bytes.
    static let length = 32
    /// How long a token is, in bytes.
    static let tokenLength = Int(crypto_shorthash_siphashx24_BYTES)

    /// A guard signing with `key`, 32 bytes (`FormGuard.newKey()`).
    public init(key: [UInt8]) {
        precondition(key.count == Self.length, "a form key is 32 bytes")
        Sodium.ready()
        // The MAC's 16-byte key is the secret's keyed BLAKE2b hash of a label, not half the secret.
        var macKey = [UInt8](repeating: 0, count: Int(crypto_shorthash_siphashx24_KEYBYTES))
        let label = Array("sectional form tokens".utf8)
        _ = crypto_generichash(&macKey, macKey.count, label, UInt64(label.count), key, key.count)
        self.macKey = macKey
    }

    /// 32 random bytes for a new key.
    public static func newKey() -> [UInt8] {
        Sodium.ready()
        var key = [UInt8](repeating: 0, count: length)
        randombytes_buf(&key, length)
        return key
    }

    /// The token of the form posting to `action` for `subject`, as hex.
    public func token(for action: String, subject: String) -> String {
        formToken(for: action, subject: subject).description
    }

    /// The token of the form posting to `action` for `subject`, kept as
    /// its bytes: a page writes its hex straight into the form.
    public func formToken(for action: String, subject: String) -> FormToken {
        var action = action
        return action.withUTF8 { action in mac(of: subject, action) { FormToken($0) } }
    }

    /// The token of the form posting to `prefix`, `number` in decimal, then
    /// `suffix`, for `subject`: with `("/feed/alerts/", 2, "/dismiss")`, the
    /// token of `/feed/alerts/2/dismiss`, signed with no string made of the
    /// action. For a form per row whose action names the row's record: a
    /// page signs one for each (a string of each cost about 650 instructions).
    /// The fixed parts come from the program, as a route's do.
    public func formToken(forAction prefix: StaticString, _ number: Int, _ suffix: StaticString, subject: String) -> FormToken {
        Self.withDecimal(number) { digits in mac(of: subject, Self.bytes(of: prefix), digits, Self.bytes(of: suffix)) { FormToken($0) } }
    }

    private static func bytes(of literal: StaticString) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
    }

    /// `number`'s decimal digits, with a `-` when negative, lent from the stack.
    private static func withDecimal<Result>(_ number: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        // A sign and 19 digits hold any `Int`; written from the last.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = buffer.count
            var rest = number.magnitude
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            if number < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            return body(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Refuses a `POST` that another site sent, or whose token is missing or
    /// not this form's and this subject's.
    /// - Throws: a 403 `HTTPError` saying which.
    public func check(_ request: Request, fields: [QueryItem], action: String, subject: String) throws(HTTPError) {
        try Self.checkSameOrigin(request)
        guard let sent = fields.first(where: { $0.name == Self.fieldName })?.value, let bytes = Hex.decode(sent),
            bytes.count == Self.tokenLength
        else {
            throw HTTPError(.forbidden, "The form has no valid token; reload the page and try again.")
        }
        var action = action
        let matches = action.withUTF8 { action in mac(of: subject, action) { sodium_memcmp(bytes, $0.baseAddress, $0.count) == 0 } }
        guard matches else {
            throw HTTPError(.forbidden, "The form's token is not for this form; reload the page and try again.")
        }
    }

    /// Refuses a request a browser says came from another site: by
    /// `Sec-Fetch-Site` when sent (every current browser), else by `Origin`.
    /// - Throws: a 403 `HTTPError`.
    public static func checkSameOrigin(_ request: Request) throws(HTTPError) {
        if let site = request.headers["Sec-Fetch-Site"] {
            // "none": the user's own action, e.g. a bookmark; "same-site" is a sibling origin, not this one.
            guard site == "same-origin" || site == "none" else {
                throw HTTPError(.forbidden, "Cross-site form posts are refused (Sec-Fetch-Site: \(site)).")
            }
        }
        if let origin = request.headers["Origin"] {
            let host = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init)
            guard origin.hasPrefix("http"), let host, host == request.headers["Host"] else {
                throw HTTPError(.forbidden, "Cross-site form posts are refused (Origin: \(origin)).")
            }
        }
    }

    /// The MAC of `form`, NUL, `subject`, NUL, the action (`action`, then
    /// `more` and `last`: its parts, when it is given so), lent to `use` from
    /// the stack (an array of its own cost more than its hex).
    private func mac<Result>(
        of subject: String, _ action: UnsafeBufferPointer<UInt8>, _ more: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0),
        _ last: UnsafeBufferPointer<UInt8> = .init(start: nil, count: 0), _ use: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        var subject = subject
        return subject.withUTF8 { subject in
            // The message in one piece (SipHash takes it whole), then the MAC, on the stack.
            let length = Self.domain.utf8CodeUnitCount + 1 + subject.count + 1 + action.count + more.count + last.count
            return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + Self.tokenLength) { buffer in
                var end = buffer.baseAddress!
                func append(_ bytes: UnsafeBufferPointer<UInt8>) {
                    if let start = bytes.baseAddress { end.initialize(from: start, count: bytes.count) }
                    end += bytes.count
                }
                func appendSeparator() {
                    end.initialize(to: 0)
                    end += 1
                }
                append(Self.bytes(of: Self.domain))
                appendSeparator()
                append(subject)
                appendSeparator()
                append(action)
                append(more)
                append(last)
                _ = crypto_shorthash_siphashx24(end, buffer.baseAddress!, UInt64(length), macKey)
                return use(UnsafeBufferPointer(start: end, count: Self.tokenLength))
            }
        }
    }

    /// What every message starts with, so that no token is the MAC of anything else.
    private static let domain: StaticString = "form"
}

/// A form's token: its 16 bytes, written out as 32 hex digits where the
/// form is rendered (a string for each cost an allocation and a copy).
public struct FormToken: Sendable, Equatable, CustomStringConvertible {
    private let high: UInt64
    private let low: UInt64

    init(_ mac: UnsafeBufferPointer<UInt8>) {
        precondition(mac.count == 16, "a form token is 16 bytes")
        let raw = UnsafeRawBufferPointer(mac)
        high = raw.loadUnaligned(as: UInt64.self)
        low = raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)
    }

    /// Lends the token as 32 lowercase hex digits (ASCII: nothing in them
    /// needs escaping), from the stack: a page writes them into its form
    /// (`text(_: Span<UInt8>)`) with no string made of them.
    public func withHex<Result>(_ body: (Span<UInt8>) throws -> Result) rethrows -> Result {
        try withHexDigits { try body($0.span) }
    }

    /// The 32 hex digits.
    public var description: String { withHexDigits { String(decoding: $0, as: UTF8.self) } }

    private func withHexDigits<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try withUnsafeBytes(of: (high, low)) { mac in
            try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { hex in
                Hex.write(mac, into: hex)
                return try body(UnsafeBufferPointer(hex))
            }
        }
    }
}

/// libsodium must be initialised once before use; later calls are no-ops.
enum Sodium {
    static func ready() {
        let status = sodium_init()
        precondition(status >= 0, "libsodium could not initialise")
    }
}

/// Lowercase hexadecimal, for tokens in forms and keys in the database.
public enum Hex {
    /// Two lowercase digits a byte.
    public static func encode(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBufferPointer(encode)
    }

    /// Two lowercase digits a byte.
    public static func encode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            write(UnsafeRawBufferPointer(bytes), into: text)
            return bytes.count * 2
        }
    }

    /// Two lowercase digits a byte, into `text` (twice as long as `bytes`).
    ///
    /// Both digits of a byte come from one table entry, stored at once: a
    /// page writes a token per form and hashes its session's token, and
    /// digit by digit that was 20 instructions a byte.
    static func write(_ bytes: UnsafeRawBufferPointer, into text: UnsafeMutableBufferPointer<UInt8>) {
        guard let out = text.baseAddress else { return }
        let raw = UnsafeMutableRawPointer(out)
        digitPairs.withUnsafeBufferPointer { pairs in
            for (index, byte) in bytes.enumerated() {
                raw.storeBytes(of: pairs[Int(byte)].littleEndian, toByteOffset: 2 * index, as: UInt16.self)
            }
        }
    }

    /// Entry N holds the two digits of byte N, the first in the low byte (stored little-endian: first in memory).
    private static let digitPairs: [UInt16] = (0..<256).map { byte in
        let digits = Array("0123456789abcdef".utf8)
        return UInt16(digits[byte >> 4]) | UInt16(digits[byte & 0xF]) << 8
    }

    /// The bytes of an even-length hex string; `nil` for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        var bytes = [UInt8]()
        bytes.reserveCapacity(utf8.count / 2)
        var index = 0
        while index < utf8.count {
            guard let high = value(utf8[index]), let low = value(utf8[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    /// Whether each of the eight bytes of `word` is a hexadecimal digit, of
    /// either case: for each byte below 0x80, adding 0x80 - `low` sets its
    /// top bit when it is at least `low`, with no carry into the next byte.
    static func areDigits(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops = ones &* 0x80
        guard word & tops == 0 else { return false }
        func atLeast(_ low: UInt64, _ bytes: UInt64) -> UInt64 { (bytes &+ ones &* (0x80 &- low)) & tops }
        let decimal = atLeast(0x30, word) & ~atLeast(0x3A, word)
        let lowercased = word | ones &* 0x20  // 'A'...'F' as 'a'...'f'; nothing else becomes one
        let letter = atLeast(0x61, lowercased) & ~atLeast(0x67, lowercased)
        return decimal | letter == tops
    }

    /// Whether `byte` is a hexadecimal digit, of either case.
    static func isDigit(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"): true
        default: false
        }
    }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
