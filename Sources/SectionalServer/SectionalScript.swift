import HTTPServer

/// The page script every composed page links: adding and removing
/// sections in place, forms that refresh their card, live cards. An app
/// adds a script of its own only for its own behaviour; pages work with no
/// script at all.
enum SectionalScript {
    /// Where it is served; the query names its content, so browsers may keep it for good.
    static let path = "/_sectional/sectional.js?v=" + etagValue
    static let routePath = "/_sectional/sectional.js"

    /// Its content's hash: the `ETag` and the version in `path`.
    static let etagValue: String = {
        // FNV-1a, 64 bits: a cache key, not a secret.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in source.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }()

    static let bytes = Array(source.utf8)
}

extension SectionalScript {
    /// Serves the script at `routePath`, with its `ETag`; a browser that has it gets a 304.
    static func register(on router: inout Router) {
        router.getSynchronously(routePath) { request in response(to: request) }
    }

    static func response(to request: Request) -> Response {
        let etag = "\"" + etagValue + "\""
        let headers: HTTPHeaders = [
            "Content-Type": "text/javascript; charset=utf-8", "ETag": etag,
            // The version is in the URL a page links: a new script is a new URL.
            "Cache-Control": "public, max-age=31536000, immutable", "X-Content-Type-Options": "nosniff",
        ]
        if EntityTag.isConfirmed(etag, by: request) { return Response(status: .notModified, headers: headers) }
        return Response(headers: headers, body: .bytes(bytes))
    }
}
