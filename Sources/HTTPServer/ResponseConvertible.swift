/// A value a handler can return: it knows how to become a response.
///
/// ```swift
/// extension Receipt: ResponseConvertible {
///     public func response() -> Response {
///         Response(contentType: "text/plain; charset=utf-8", body: "paid \(amount)")
///     }
/// }
/// ```
public protocol ResponseConvertible: SendableMetatype {
    /// The response this value is answered with.
    func response() -> Response
}

extension Response: ResponseConvertible {
    /// A response answers as itself.
    public func response() -> Response { self }
}

/// A string answers as plain UTF-8 text.
extension String: ResponseConvertible {
    /// Plain UTF-8 text.
    public func response() -> Response {
        Response(contentType: "text/plain; charset=utf-8", body: self)
    }
}

extension HTTPError: ResponseConvertible {
    /// The default rendering of an error: its message as plain text, with its header fields.
    public func response() -> Response {
        var response = Response(status: status, contentType: "text/plain; charset=utf-8", body: message + "\n")
        for (name, value) in headers { response.headers[name] = value }
        return response
    }
}
