import HTTPServer

#if canImport(Glibc)
    import Glibc
#endif

/// The cookie that carries a session's token: `HttpOnly` (no script reads
/// it), `SameSite=Lax` (no cross-site post sends it), `Path=/`, and `Secure`
/// when the request came over HTTPS.
public struct SessionCookie: Sendable {
    /// The cookie's name.
    public var name: String

    /// A cookie named `name`.
    public init(name: String = "sectional_session") { self.name = name }

    /// The `Set-Cookie` value that stores `token` for `maxAge` seconds.
    public func setting(_ token: String, maxAge: Int, secure: Bool) -> String {
        "\(name)=\(token); Path=/; Max-Age=\(maxAge); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// The `Set-Cookie` value that makes the browser forget it.
    public func clearing(secure: Bool) -> String {
        "\(name)=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }

    /// The cookie's value in the request's `Cookie` fields, if sent.
    public func value(in request: Request) -> String? {
        withValue(in: request) { String(decoding: $0, as: UTF8.self) }
    }

    /// The cookie's value, if sent, lent to `body` as the bytes of the
    /// request's field: nothing is copied. Inlinable for the reason
    /// `HTTPHeaders.withValue(of:_:)` is: specialized where it is called.
    @inlinable public func withValue<Result>(in request: Request, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result? {
        // Browsers send one Cookie field; this runs on every request, so it
        // scans that field's bytes once.
        var name = name
        let found = request.headers.withValue(of: "Cookie") { bytes in
            name.withUTF8 { name -> Result? in
                var start = 0
                while start < bytes.count {
                    // The next `;` found by the C library's word-at-a-time search (a cookie is a hundred bytes or more).
                    let end =
                        memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: ";")), bytes.count - start).map {
                            UnsafeRawPointer($0) - UnsafeRawPointer(bytes.baseAddress!)
                        } ?? bytes.count
                    while start < end && bytes[start] == UInt8(ascii: " ") { start += 1 }
                    let valueStart = start + name.count + 1
                    if valueStart <= end, bytes[valueStart - 1] == UInt8(ascii: "="),
                        name.isEmpty || memcmp(bytes.baseAddress! + start, name.baseAddress!, name.count) == 0
                    {
                        return body(UnsafeBufferPointer(rebasing: bytes[valueStart..<end]))
                    }
                    start = end + 1
                }
                return nil
            }
        }
        return found ?? nil
    }
}

/// What a request says about how it came and who sent it.
extension Request {
    /// Whether the request came over HTTPS: only ever from a proxy in
    /// `trustedProxies` that says so with `X-Forwarded-Proto: https`
    /// (this server speaks plain HTTP itself). Anyone else can send that
    /// field, so it means nothing from them.
    public func cameOverHTTPS(trustedProxies: Set<String>) -> Bool {
        guard let address = clientAddress, trustedProxies.contains(address),
            let proto = headers["X-Forwarded-Proto"]?.split(separator: ",").first
        else { return false }
        return proto.trimmingCharacters(in: " ").lowercased() == "https"
    }

    /// The token of an `Authorization: Bearer TOKEN` field, if sent.
    public var bearerToken: String? {
        // Looked at as bytes first: nearly every request has no such field, and a browser's never does.
        guard headers.withValue(of: "Authorization", { $0.count > 7 }) == true, let field = headers["Authorization"],
            field.prefix(7).lowercased() == "bearer "
        else { return nil }
        return String(field.dropFirst(7)).trimmingCharacters(in: " ")
    }
}

extension StringProtocol {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var text = Substring(self)
        while text.first == character { text = text.dropFirst() }
        while text.last == character { text = text.dropLast() }
        return String(text)
    }
}
