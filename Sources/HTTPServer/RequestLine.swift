#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// The method and version of the request line, as libmicrohttpd passes them
/// on each call about the request: read only on the first, when the head has
/// arrived. The usual methods are told from their bytes; a `String` for `GET`
/// and another for `HTTP/1.1` cost about 700 instructions a request.
struct RequestLine {
    let method: UnsafePointer<CChar>
    let version: UnsafePointer<CChar>?

    var decodedMethod: HTTPMethod {
        if strcmp(method, "GET") == 0 { return .get }
        if strcmp(method, "HEAD") == 0 { return .head }
        if strcmp(method, "POST") == 0 { return .post }
        return HTTPMethod(rawValue: String(cString: method))
    }

    /// HTTP/1.0 has no `Host` requirement and no transfer codings.
    var isHTTP10: Bool { version.map { strcmp($0, "HTTP/1.0") == 0 } ?? false }
}
