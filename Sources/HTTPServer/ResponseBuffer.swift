#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Bytes in memory a response owns: a rendered page's buffer, handed over
/// by its writer without a copy and freed when libmicrohttpd has sent it.
///
/// ```swift
/// var html = HTMLWriter()
/// page.render(into: &html)
/// let response = Response(body: .buffer(ResponseBuffer(taking: html.takeBuffer())))
/// ```
///
/// A page was copied into an array of its own before (an allocation and a
/// copy of every byte a request); now the writer's memory is the body.
public final class ResponseBuffer: @unchecked Sendable {
    // Unchecked: the memory is written before it is handed over and never after.
    /// The first byte; libmicrohttpd sends from here while it holds a reference.
    let start: UnsafeMutablePointer<UInt8>?
    /// How many bytes.
    public let count: Int

    /// Takes `buffer`'s memory, from `malloc` (as a `ByteWriter`'s
    /// `takeBuffer()` hands it over): it is freed with this object, and
    /// nothing else may write to it or free it.
    public init(taking buffer: UnsafeMutableBufferPointer<UInt8>) {
        start = buffer.baseAddress
        count = buffer.count
    }

    deinit { free(start) }

    /// Lends the bytes, which live as long as this object does.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: start, count: count))
    }
}
