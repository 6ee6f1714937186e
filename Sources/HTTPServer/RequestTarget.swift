/// The request target exactly as it came on the request line, checked and
/// brought to origin form (`/path?query`) before anything parses it.
///
/// libmicrohttpd 0.9.75 splits the request line at its first and last
/// space and ends lines only at LF, so a space, a bare CR or another
/// control byte can sit inside what it calls the target: `GET /a x
/// HTTP/1.1`, or a second request glued on after a bare CR. Such a target
/// is refused (RFC 9112 §3.2). The absolute form that proxies send
/// (`http://host/feed`) is accepted and reduced to its path and query.
enum RequestTarget {
    /// The origin-form target, or the reason the raw target is refused.
    static func originForm(of raw: String) -> Result<String, HTTPError> {
        // The usual target: origin form, nothing to change. Tested on the bytes: walking the
        // UTF-8 view cost ~30 instructions a byte, on every request.
        let isOriginForm = raw.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.first == UInt8(ascii: "/") && !bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F })
        }
        if isOriginForm == true { return .success(raw) }
        var utf8 = raw.utf8[...]
        if utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return .failure(HTTPError(.badRequest, "The request target holds a space or a control character."))
        }
        if let rest = dropScheme(from: utf8) {
            // After the authority: the path, or the query when the path is empty.
            utf8 = rest
            let pathStart = utf8.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") } ?? utf8.endIndex
            if utf8[utf8.startIndex..<pathStart].isEmpty {
                return .failure(HTTPError(.badRequest, "The request target names no host."))
            }
            let pathAndQuery = String(Substring(utf8[pathStart...]))
            return .success(pathAndQuery.hasPrefix("/") ? pathAndQuery : "/" + pathAndQuery)
        }
        return .success(raw)
    }

    /// The target with control bytes and DEL written `\xNN`, for the access log.
    static func printable(_ raw: String) -> String {
        var printable = ""
        for byte in raw.utf8 {
            if byte < 0x20 || byte == 0x7F {
                let hex = String(byte, radix: 16, uppercase: true)
                printable += "\\x" + (hex.count == 1 ? "0" + hex : hex)
            } else {
                printable.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return printable
    }

    /// What follows `http://` or `https://` (in any case), or `nil` for another form.
    private static func dropScheme(from target: Substring.UTF8View) -> Substring.UTF8View? {
        for scheme in ["http://", "https://"] {
            let count = scheme.utf8.count
            guard target.count > count else { continue }
            let prefix = target.prefix(count).lazy.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            if prefix.elementsEqual(scheme.utf8) { return target.dropFirst(count) }
        }
        return nil
    }
}
