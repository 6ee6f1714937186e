extension String {
    /// The string's UTF-8 bytes lent to `body`: where they lie for a native
    /// string, else from a contiguous copy. A copy made only to call
    /// `withUTF8` on costs a retain and a release, both atomic, at each of a
    /// request's look-ups.
    package func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        if let lent = try utf8.withContiguousStorageIfAvailable(body) { return lent }
        var copy = self
        return try copy.withUTF8(body)
    }
}
