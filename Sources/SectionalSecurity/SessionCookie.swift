import HTTPServer

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
        // Browsers send one Cookie field; this runs on every request, so it
        // scans that field's bytes once and copies only the value it finds.
        guard let field = request.headers["Cookie"] else { return nil }
        let bytes = field.utf8
        var start = bytes.startIndex
        while start != bytes.endIndex {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            let pair = bytes[start..<end].drop { $0 == UInt8(ascii: " ") }
            if pair.starts(with: name.utf8), pair.dropFirst(name.utf8.count).first == UInt8(ascii: "=") {
                return String(Substring(pair.dropFirst(name.utf8.count + 1)))
            }
            start = end == bytes.endIndex ? end : bytes.index(after: end)
        }
        return nil
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
        guard let field = headers["Authorization"], field.count > 7, field.prefix(7).lowercased() == "bearer " else { return nil }
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
