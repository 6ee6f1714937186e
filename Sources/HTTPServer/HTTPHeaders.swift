#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// An ordered list of header fields; names compare case-insensitively.
///
/// The fields are kept as bytes in one buffer, each name and value ended by
/// a NUL, beside a list of where each field starts. A request's fields are
/// copied in as libmicrohttpd hands them over and a response's are lent to it
/// in place: no `String` is made for a field nobody reads (as one `String` a
/// name and one a value, a browser's dozen fields were two dozen objects made
/// and freed a request).
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// Where a field is in `bytes`: its name at `start`, its value after the name's NUL.
    struct Span: Sendable {
        var start: UInt32
        var nameCount: UInt32
        var valueCount: UInt32

        var valueStart: Int { Int(start) + Int(nameCount) + 1 }
        var valueBytes: Range<Int> { valueStart..<(valueStart + Int(valueCount)) }
    }
    @usableFromInline private(set) var bytes: [UInt8] = []
    private var spans: [Span] = []

    /// The fields in the order they were added, as a new array (iterating
    /// the headers themselves makes none).
    public var fields: [(name: String, value: String)] { map { $0 } }

    /// No fields.
    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The number of fields.
    public var count: Int { spans.count }

    /// The bytes its fields take in memory, for a cache that counts what it keeps.
    public var storageBytes: Int { bytes.capacity + spans.capacity * MemoryLayout<Span>.stride }

    /// The first value of the named field, if any.
    public subscript(name: String) -> String? {
        get { withValue(of: name) { String(decoding: $0, as: UTF8.self) } }
        set {
            remove(name)
            if let newValue { add(name, newValue) }
        }
    }

    /// The first value of the named field, if any, lent to `body` as its
    /// bytes: nothing is copied.
    ///
    /// Inlinable, so that it is specialized where it is called: as generic
    /// code called from another module, every call asked the runtime for its
    /// result's metadata (2,200 instructions of a `304`'s three look-ups).
    @inlinable public func withValue<Result>(of name: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result? {
        guard let found = valueRange(of: name) else { return nil }
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[found])) }
    }

    /// Where in `bytes` the first value of the named field lies, if there is one.
    @usableFromInline func valueRange(of name: String) -> Range<Int>? {
        name.withUTF8Bytes { wanted in
            bytes.withUnsafeBufferPointer { all in
                guard let span = spans.first(where: { Self.names(all, $0, wanted) }) else { return nil }
                return span.valueBytes
            }
        }
    }

    /// The same fields in no more memory than they take: for fields kept
    /// long (an open event stream keeps its request's), read into the room
    /// most requests need.
    public func compacted() -> HTTPHeaders {
        var compact = HTTPHeaders()
        compact.bytes = bytes.withUnsafeBufferPointer { Array($0) }
        compact.spans = spans.withUnsafeBufferPointer { Array($0) }
        return compact
    }

    /// Makes room for `count` fields of `bytes` bytes in all.
    public mutating func reserveCapacity(_ count: Int, bytes byteCount: Int = 0) {
        spans.reserveCapacity(count)
        bytes.reserveCapacity(byteCount > 0 ? byteCount : count * 32)
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        var name = name, value = value
        name.withUTF8 { name in value.withUTF8 { value in add(name: name, value: value) } }
    }

    /// Appends a field from its bytes (a NUL in either ends it where C reads it).
    mutating func add(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
        spans.append(Span(start: UInt32(bytes.count), nameCount: UInt32(name.count), valueCount: UInt32(value.count)))
        bytes.append(contentsOf: name)
        bytes.append(0)
        bytes.append(contentsOf: value)
        bytes.append(0)
    }

    /// Makes room for `fields` more fields of `bytes` bytes in all: the
    /// fields added to a copy of a site's headers then go in without the
    /// copy growing twice, and the copy is made once, here.
    public mutating func makeRoom(forFields fields: Int, bytes byteCount: Int) {
        reserveCapacity(spans.count + fields, bytes: bytes.count + byteCount)
    }

    /// Removes every field of that name.
    public mutating func remove(_ name: String) {
        var name = name
        name.withUTF8 { wanted in
            // Setting a field that is not there yet (most are not) changes nothing.
            guard let first = bytes.withUnsafeBufferPointer({ all in spans.firstIndex { Self.names(all, $0, wanted) } }) else { return }
            // The fields after it move down in place, in both arrays: no new headers are made.
            var keptSpans = first
            var keptBytes = Int(spans[first].start)
            for index in first..<spans.count {
                let span = spans[index]
                let isNamed = bytes.withUnsafeBufferPointer { Self.names($0, span, wanted) }
                guard !isNamed else { continue }
                let length = Int(span.nameCount) + Int(span.valueCount) + 2
                if keptBytes != Int(span.start) {
                    bytes.withUnsafeMutableBufferPointer { all in
                        _ = memmove(all.baseAddress! + keptBytes, all.baseAddress! + Int(span.start), length)
                    }
                }
                spans[keptSpans] = Span(start: UInt32(keptBytes), nameCount: span.nameCount, valueCount: span.valueCount)
                keptSpans += 1
                keptBytes += length
            }
            spans.removeSubrange(keptSpans...)
            bytes.removeSubrange(keptBytes...)
        }
    }

    /// Lends each field to `body` as C strings, in order.
    func forEachCString(_ body: (_ name: UnsafePointer<CChar>, _ value: UnsafePointer<CChar>) -> Void) {
        bytes.withUnsafeBytes { all in
            for span in spans {
                body(
                    (all.baseAddress! + Int(span.start)).assumingMemoryBound(to: CChar.self),
                    (all.baseAddress! + span.valueStart).assumingMemoryBound(to: CChar.self))
            }
        }
    }

    /// The fields in order, as `(name, value)` pairs.
    public func makeIterator() -> Iterator { Iterator(headers: self) }

    /// Walks the fields in order.
    public struct Iterator: IteratorProtocol {
        let headers: HTTPHeaders
        var index = 0

        /// The next field, or `nil` after the last.
        public mutating func next() -> (name: String, value: String)? {
            guard index < headers.spans.count else { return nil }
            let span = headers.spans[index]
            index += 1
            return headers.bytes.withUnsafeBufferPointer { all in
                (String(decoding: HTTPHeaders.name(all, span), as: UTF8.self), String(decoding: HTTPHeaders.value(all, span), as: UTF8.self))
            }
        }
    }

    private static func name(_ all: UnsafeBufferPointer<UInt8>, _ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: all[Int(span.start)..<(Int(span.start) + Int(span.nameCount))])
    }

    private static func value(_ all: UnsafeBufferPointer<UInt8>, _ span: Span) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: all[span.valueBytes])
    }

    /// Whether the field at `span` is named `wanted`, in any case.
    private static func names(_ all: UnsafeBufferPointer<UInt8>, _ span: Span, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        Int(span.nameCount) == wanted.count && name(all, span).equalsIgnoringASCIICase(wanted)
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether the two spell the same, ASCII letters in any case.
    func equalsIgnoringASCIICase(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        for index in 0..<count where self[index] != other[index] {
            let lower = self[index] | 0x20
            guard lower == other[index] | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
        }
        return true
    }

    /// Whether the two hold the same bytes (`memcmp`: `elementsEqual` walks them one at a time).
    func sameBytes(as other: UnsafeBufferPointer<UInt8>) -> Bool {
        count == other.count && (isEmpty || memcmp(baseAddress!, other.baseAddress!, count) == 0)
    }
}
