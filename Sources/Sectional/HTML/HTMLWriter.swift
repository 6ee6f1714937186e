/// What HTML renders into: markup appended as it is and text escaped, into
/// a `ByteWriter`; the hot loop of every page.
///
/// It cannot be copied (`~Copyable`): renderers take it `inout`, and the
/// finished page is taken out once with `bytes` or `withBytes`.
public struct HTMLWriter: ~Copyable {
    /// The bytes written. Usable from inlined code: a literal's append is
    /// inlined into every renderer, where its length is a constant (one call fewer a tag).
    @usableFromInline var output: ByteWriter
    /// Bytes written so far.
    public var count: Int { output.count }

    /// An empty buffer with room for `capacity` bytes (64 at least) before it first grows.
    public init(capacity: Int = 4096) {
        output = ByteWriter(capacity: capacity)
    }

    /// A copy of the bytes written.
    public var bytes: [UInt8] { output.bytes }

    /// Ends the writer and hands its memory over, without copying: see `ByteWriter.takeBuffer()`.
    public consuming func takeBuffer() -> UnsafeMutableBufferPointer<UInt8> { output.takeBuffer() }

    /// Lends the bytes written, without copying them.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try output.withBytes(body)
    }

    /// Appends markup unescaped.
    ///
    /// Disfavoured, so that a literal (`writeRaw(">")`) is a `StaticString`:
    /// copied inline at a length known when compiling, not lent by a string.
    @_disfavoredOverload
    public mutating func writeRaw(_ markup: String) {
        output.append(markup)
    }

    /// Appends markup unescaped: inlined where it is written.
    @inlinable @inline(__always)
    public mutating func writeRaw(_ markup: StaticString) {
        output.append(markup)
    }

    /// Appends an integer in decimal, e.g. `-42`: numbers need no escaping,
    /// nor a string made first.
    public mutating func writeDecimal(_ number: Int) {
        output.appendDecimal(number)
    }

    /// Appends a number in decimal with `separator` between groups of three
    /// digits, e.g. `12,500` (none with `""`): amounts written straight into the page.
    public mutating func writeDecimal(_ number: UInt, groupingBy separator: StaticString) {
        output.appendDecimal(number, groupingBy: separator)
    }

    /// Appends text with `& < > " '` escaped: safe in element content and in
    /// quoted attribute values alike.
    public mutating func writeEscaped(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0) }) == nil { writeEscapedMadeContiguous(text) }
    }

    /// A string that does not hold its bytes in one piece (rare: bridged
    /// or foreign ones), copied into one first.
    private mutating func writeEscapedMadeContiguous(_ text: String) {
        var text = text
        text.withUTF8 { writeEscapedScanning($0) }
    }

    /// Appends UTF-8 text with `& < > " '` escaped.
    ///
    /// Text of up to 32 bytes (most of a page's: names, ids, classes,
    /// labels) is read as words that overlap, each tested for the five at
    /// once, and copied whole when clean: no byte-by-byte scan of a short
    /// text (that and its calls cost 140 instructions for six bytes, now 70).
    /// Inlined into `writeEscaped(_: String)`: one call a text, not two.
    @inline(__always)
    public mutating func writeEscaped(_ utf8: UnsafeBufferPointer<UInt8>) {
        guard let start = utf8.baseAddress, utf8.count <= 32 else { return writeEscapedScanning(utf8) }
        // Not clean may be a `#` only: the scan then finds nothing to escape.
        if Self.isClean(UnsafeRawPointer(start), count: utf8.count) { output.append(utf8) } else { writeEscapedScanning(utf8) }
    }

    /// Whether the `length` bytes at `source` hold none of `& < > " '`,
    /// read as words that overlap; false may be a `#` only.
    ///
    /// Inlinable: for a literal (`text("$")`) every load is of the
    /// program's constant text, and the test is done when compiling.
    @inlinable @inline(__always)
    static func isClean(_ source: UnsafeRawPointer, count length: Int) -> Bool {
        @inline(__always) func word(at offset: Int) -> UInt64 { source.loadUnaligned(fromByteOffset: offset, as: UInt64.self) }
        switch length {
        case 0: return true
        case 1...3:
            // Zero bytes above the text's are none of the five.
            let word =
                UInt64(source.load(as: UInt8.self)) | UInt64(source.load(fromByteOffset: length / 2, as: UInt8.self)) << 8
                | UInt64(source.load(fromByteOffset: length - 1, as: UInt8.self)) << 16
            return !mayHoldEscapable(word)
        case 4...7:
            let head = source.loadUnaligned(as: UInt32.self)
            let tail = source.loadUnaligned(fromByteOffset: length - 4, as: UInt32.self)
            return !mayHoldEscapable(UInt64(head) | UInt64(tail) << 32)
        case 8...16:
            return !(mayHoldEscapable(word(at: 0)) || mayHoldEscapable(word(at: length - 8)))
        case 17...32:
            // Two words from each end.
            return
                !(mayHoldEscapable(word(at: 0)) || mayHoldEscapable(word(at: 8)) || mayHoldEscapable(word(at: length - 16))
                || mayHoldEscapable(word(at: length - 8)))
        default:
            // Word by word, the last one ending with the text.
            var offset = 0
            while offset < length - 8 {
                if mayHoldEscapable(word(at: offset)) { return false }
                offset += 8
            }
            return !mayHoldEscapable(word(at: length - 8))
        }
    }

    /// Escapes `utf8` by finding each of the five in turn: long text, or short text that holds one.
    private mutating func writeEscapedScanning(_ utf8: UnsafeBufferPointer<UInt8>) {
        var clean = 0
        var index = Self.firstEscapable(in: utf8, from: 0)
        while index < utf8.count {
            let replacement: StaticString
            switch utf8[index] {
            case UInt8(ascii: "&"): replacement = "&amp;"
            case UInt8(ascii: "<"): replacement = "&lt;"
            case UInt8(ascii: ">"): replacement = "&gt;"
            case UInt8(ascii: "\""): replacement = "&quot;"
            default: replacement = "&#39;"
            }
            output.append(UnsafeBufferPointer(rebasing: utf8[clean..<index]))
            writeRaw(replacement)
            clean = index + 1
            index = Self.firstEscapable(in: utf8, from: clean)
        }
        output.append(UnsafeBufferPointer(rebasing: utf8[clean...]))
    }

    /// Appends an attribute: `prefix` (` name="`), the value escaped, and the closing quote.
    public mutating func writeAttribute(_ prefix: StaticString, _ value: String) {
        writeRaw(prefix)
        writeEscaped(value)
        writeRaw("\"")
    }

    /// Appends again what this writer wrote at `range`, e.g. an id escaped
    /// once for several attributes: a copy costs a fraction of escaping again.
    @inlinable @inline(__always)
    public mutating func writeAgain(_ range: Range<Int>) {
        output.appendCopy(of: range)
    }

    /// Appends UTF-8 bytes unescaped: markup, or text known to need no escaping.
    public mutating func writeRaw(_ utf8: UnsafeBufferPointer<UInt8>) {
        output.append(utf8)
    }

    /// The index of the first of `& < > " '` at or after `start`, or the end.
    ///
    /// Most text has none of them, so it is tested eight bytes at a time
    /// (escaping was the largest cost of rendering a page byte by byte), the
    /// last few bytes of a longer text as the word that ends it. Only a word
    /// that may hold one, or a text shorter than a word, is read byte by byte.
    private static func firstEscapable(in utf8: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = utf8.baseAddress, start + 8 <= utf8.count else { return firstEscapableByte(in: utf8, from: start, to: utf8.count) }
        let bytes = UnsafeRawPointer(base)
        var index = start
        while index + 8 <= utf8.count {
            if mayHoldEscapable(bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                // A `#` alone raises the test too: then the scan goes on past this word.
                let found = firstEscapableByte(in: utf8, from: index, to: index + 8)
                if found < index + 8 { return found }
            }
            index += 8
        }
        // The last word overlaps bytes already found clean: it holds one of the five only if the rest does.
        guard index < utf8.count, mayHoldEscapable(bytes.loadUnaligned(fromByteOffset: utf8.count - 8, as: UInt64.self)) else {
            return utf8.count
        }
        return firstEscapableByte(in: utf8, from: index, to: utf8.count)
    }

    /// The byte-by-byte scan of `start..<end`, where a word said one of the
    /// five may be: the index of the first, or `end`.
    private static func firstEscapableByte(in utf8: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> Int {
        var index = start
        while index < end {
            let byte = utf8[index]
            if byte < 64, escapedBytes & (1 << UInt64(byte)) != 0 { return index }
            index += 1
        }
        return index
    }

    /// Whether one of the eight bytes in `word` may be one of `& < > " '`:
    /// true for each of them, and for `#`, never for any other byte.
    ///
    /// Two tests cover the five: `"` `&` `'` are `0x22` with bits 0 and 2
    /// free (which lets `#`, `0x23`, in), `<` `>` are `0x3C` with bit 1
    /// free. Setting the free bits and comparing with the result (`x ^ y`
    /// has a zero byte where they are equal) tests every byte at once;
    /// `(x - 0x01…01) & ~x & 0x80…80` is non-zero exactly when `x` has a
    /// zero byte (Hacker's Delight, 6-1). Half the work of a test per
    /// character, on the hot path of every page.
    @inlinable @inline(__always)
    static func mayHoldEscapable(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quoteAmpersandApostrophe = (word | 0x05 &* ones) ^ (0x27 &* ones)
        let angleBrackets = (word | 0x02 &* ones) ^ (0x3E &* ones)
        @inline(__always) func zeroBytes(_ x: UInt64) -> UInt64 { (x &- ones) & ~x }
        return (zeroBytes(quoteAmpersandApostrophe) | zeroBytes(angleBrackets)) & (0x80 &* ones) != 0
    }

    /// Bit N is set when byte N must be escaped: `"` `&` `'` `<` `>`.
    private static let escapedBytes: UInt64 = 1 << 0x22 | 1 << 0x26 | 1 << 0x27 | 1 << 0x3C | 1 << 0x3E

    /// Appends another writer's bytes.
    public mutating func write(_ other: borrowing HTMLWriter) {
        other.withBytes { output.append($0) }
    }

    /// Appends a range of another writer's bytes.
    public mutating func write(_ other: borrowing HTMLWriter, bytes range: Range<Int>) {
        other.withBytes { output.append(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    /// Appends markup rendered before (a kept section's content) as it is.
    mutating func writeRendered(_ markup: [UInt8]) {
        markup.withUnsafeBufferPointer { output.append($0) }
    }

    /// A copy of the bytes written in `range`.
    func bytes(in range: Range<Int>) -> [UInt8] {
        withBytes { Array($0[range]) }
    }
}
