/// Where a form may send the browser back to: a path on this site only.
/// Anything else (`//evil.example`, `https:…`, `/\evil`, control bytes)
/// would make the server an open redirect.
public enum LocalRedirect {
    /// `target` when it is a local path (with its query), else `fallback`.
    public static func path(_ target: String?, fallback: String) -> String {
        guard let target, isLocal(target) else { return fallback }
        return target
    }

    /// Whether `target` names a path on this site and nothing else.
    public static func isLocal(_ target: String) -> Bool {
        let bytes = Array(target.utf8)
        guard bytes.first == UInt8(ascii: "/"), bytes.count < 2048 else { return false }
        // "//host" and "/\host" are other sites to a browser.
        if bytes.count > 1 && (bytes[1] == UInt8(ascii: "/") || bytes[1] == UInt8(ascii: "\\")) { return false }
        return !bytes.contains { $0 < 0x21 || $0 == 0x7F || $0 == UInt8(ascii: "\\") }
    }
}
