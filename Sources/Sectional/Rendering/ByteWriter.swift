#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A growable buffer of bytes appended with one bounds check and a copy
/// each: what pages (through `HTMLWriter`) and JSON answers are written into.
///
/// Its memory is `malloc`'s: it grows with `realloc` (in place when it
/// can), and a finished page's memory is handed over (`takeBuffer()`),
/// trimmed to its bytes, for the response to `free` once sent.
///
/// It cannot be copied (`~Copyable`): writers take it `inout`, and the
/// finished bytes are taken out once with `bytes` or `withBytes`. An
/// `Array`'s append costs about a hundred instructions a call (uniqueness,
/// capacity and a generic copy); this one costs a few.
public struct ByteWriter: ~Copyable {
    // Usable from inlined code: a literal's append is inlined where it is
    // written, at a length known when compiling.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    @usableFromInline var written = 0
    /// Bytes written so far.
    public var count: Int { written }

    /// An empty buffer with room for `capacity` bytes (64 at least) before it first grows.
    public init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = Self.reallocated(nil, capacity: self.capacity)
    }

    deinit { free(base) }

    /// A copy of the bytes written.
    public var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: written)) }

    /// Ends the writer and hands its memory over, without copying: the
    /// bytes written, in memory the caller now owns and frees with `free`
    /// (a `ResponseBuffer` takes it so). Room left unwritten is given back
    /// first (a shrink in place), so that a response waiting for a slow
    /// client holds its page, not the writer's spare capacity.
    public consuming func takeBuffer() -> UnsafeMutableBufferPointer<UInt8> {
        let kept = written
        let start = capacity - written >= 4096 ? Self.reallocated(base, capacity: max(kept, 1)) : base
        discard self
        return UnsafeMutableBufferPointer(start: start, count: kept)
    }

    /// Lends the bytes written, without copying them.
    public func withBytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        try body(UnsafeBufferPointer(start: base, count: written))
    }

    /// Appends bytes.
    @inlinable @inline(__always)
    public mutating func append(_ source: UnsafeBufferPointer<UInt8>) {
        guard let start = source.baseAddress else { return }
        // Sums that wrap: no buffer in memory is near `Int.max` bytes long, and
        // testing for overflow was a third of a short literal's instructions.
        if written &+ source.count > capacity { grow(toFit: written &+ source.count) }
        Self.copy(source.count, from: UnsafeRawPointer(start), to: UnsafeMutableRawPointer(base + written))
        written &+= source.count
    }

    /// Appends a literal's bytes: inlined where it is written.
    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(byte: UInt8) {
        if written == capacity { grow(toFit: written + 1) }
        base[written] = byte
        written += 1
    }

    /// Appends a string's UTF-8 bytes.
    ///
    /// Disfavoured, so that a literal is a `StaticString`: copied inline at
    /// a length known when compiling, not lent by a string.
    @_disfavoredOverload
    public mutating func append(_ text: String) {
        // Native strings lend their bytes without a copy of the string; others are made contiguous once.
        if text.utf8.withContiguousStorageIfAvailable({ append($0) }) == nil {
            var text = text
            text.withUTF8 { append($0) }
        }
    }

    /// Appends a number in decimal with `separator` between groups of three
    /// digits, e.g. `12,500` (none with `""`): no string made for it.
    ///
    /// Its length is counted first, then the digits are written from the
    /// last, in place: most numbers on a page are short (chart points,
    /// cents), and a scratch buffer and a division per digit for the
    /// grouping cost more than the digits.
    public mutating func appendDecimal(_ number: UInt, groupingBy separator: StaticString = "") {
        // One or two digits (a chart's points, cents, days) need no length counted nor a loop.
        if number < 100 {
            if written + 2 > capacity { grow(toFit: written + 2) }
            if number >= 10 {
                base[written] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number / 10)
                written += 1
            }
            base[written] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number % 10)
            written += 1
            return
        }
        let digits = Self.decimalLength(of: number)
        let separatorLength = separator.utf8CodeUnitCount
        let length = digits + (separatorLength == 0 ? 0 : (digits - 1) / 3 * separatorLength)
        if written + length > capacity { grow(toFit: written + length) }
        var end = base + written + length
        var rest = number
        var inGroup = 0
        repeat {
            if separatorLength > 0 && inGroup == 3 {
                end -= separatorLength
                end.initialize(from: separator.utf8Start, count: separatorLength)
                inGroup = 0
            }
            let (quotient, digit) = rest.quotientAndRemainder(dividingBy: 10)
            end -= 1
            end.initialize(to: UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: digit))
            rest = quotient
            inGroup += 1
        } while rest > 0
        written += length
    }

    /// How many decimal digits `number` has (1 for 0; 20 at most).
    static func decimalLength(of number: UInt) -> Int {
        var count = 1
        var threshold: UInt = 10
        while number >= threshold {
            count += 1
            if count == 20 { break }  // 10^19 ≤ number: no UInt has more
            threshold &*= 10
        }
        return count
    }

    /// Appends an integer in decimal, e.g. `-42`.
    public mutating func appendDecimal(_ number: Int) {
        if number < 0 { append("-") }
        appendDecimal(number.magnitude)
    }

    /// Makes room for `count` more bytes at once, so that the literals
    /// appended into it next (`appendReserved`) test nothing each: an
    /// attribute's name and value, written in pieces.
    @inlinable @inline(__always)
    mutating func reserve(_ count: Int) {
        if written &+ count > capacity { grow(toFit: written &+ count) }
    }

    /// Appends a literal into room `reserve` made for it.
    @inlinable @inline(__always)
    mutating func appendReserved(_ literal: StaticString) {
        Self.copy(literal.utf8CodeUnitCount, from: UnsafeRawPointer(literal.utf8Start), to: UnsafeMutableRawPointer(base + written))
        written &+= literal.utf8CodeUnitCount
    }

    /// Appends again the bytes written at `range`: a value escaped once,
    /// and written in several places.
    @inlinable
    public mutating func appendCopy(of range: Range<Int>) {
        precondition(range.lowerBound >= 0 && range.upperBound <= written, "range \(range) is outside the \(written) bytes written")
        if written + range.count > capacity { grow(toFit: written + range.count) }
        // The copy's source is read after growing, which may move the buffer.
        Self.copy(range.count, from: UnsafeRawPointer(base + range.lowerBound), to: UnsafeMutableRawPointer(base + written))
        written += range.count
    }

    /// Drops the bytes written from `offset` on: a writer that checks what
    /// it wrote, and writes it again another way when it must.
    public mutating func truncate(to offset: Int) {
        precondition(offset >= 0 && offset <= written, "offset \(offset) is outside the \(written) bytes written")
        written = offset
    }

    /// Copies `length` bytes. Up to 16 (most tags, attribute names and
    /// values) as two loads and stores that overlap in the middle, never
    /// reading or writing past either end: a call to `memcpy` cost more than
    /// the copy.
    @inlinable @inline(__always)
    static func copy(_ length: Int, from source: UnsafeRawPointer, to destination: UnsafeMutableRawPointer) {
        @inline(__always) func copyEnds<Word: BitwiseCopyable>(_: Word.Type) {
            let size = MemoryLayout<Word>.size
            let head = source.loadUnaligned(as: Word.self)
            let tail = source.loadUnaligned(fromByteOffset: length - size, as: Word.self)
            destination.storeBytes(of: head, as: Word.self)
            destination.storeBytes(of: tail, toByteOffset: length - size, as: Word.self)
        }
        switch length {
        case 0: return
        case 1...3:
            let first = source.load(as: UInt8.self)
            let middle = source.load(fromByteOffset: length / 2, as: UInt8.self)
            let last = source.load(fromByteOffset: length - 1, as: UInt8.self)
            destination.storeBytes(of: first, as: UInt8.self)
            destination.storeBytes(of: middle, toByteOffset: length / 2, as: UInt8.self)
            destination.storeBytes(of: last, toByteOffset: length - 1, as: UInt8.self)
        case 4...7: copyEnds(UInt32.self)
        case 8...16: copyEnds(UInt64.self)
        default: destination.copyMemory(from: source, byteCount: length)
        }
    }

    @usableFromInline
    mutating func grow(toFit needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        base = Self.reallocated(base, capacity: newCapacity)
        capacity = newCapacity
    }

    /// `realloc`, which stops the process when memory runs out, as Swift's own allocation does.
    @usableFromInline
    static func reallocated(_ memory: UnsafeMutablePointer<UInt8>?, capacity: Int) -> UnsafeMutablePointer<UInt8> {
        guard let grown = realloc(memory, capacity) else { fatalError("out of memory: \(capacity) bytes for a writer") }
        return grown.bindMemory(to: UInt8.self, capacity: capacity)
    }
}
