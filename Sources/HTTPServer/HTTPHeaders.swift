/// An ordered list of header fields; names compare case-insensitively.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral {
    /// A field, stored as a struct: an array of tuples is destroyed element
    /// by element through the runtime's generic tuple witnesses, slower than
    /// a struct's own (every answer's headers are destroyed: 80 to 360
    /// instructions a request, measured per route).
    struct Field: Sendable {
        var name: String
        var value: String
    }
    private var stored: [Field] = []

    /// The fields in the order they were added, as a new array (iterating
    /// the headers themselves makes none).
    public var fields: [(name: String, value: String)] { stored.map { ($0.name, $0.value) } }

    /// No fields.
    public init() {}

    public init(dictionaryLiteral elements: (String, String)...) {
        for (name, value) in elements { add(name, value) }
    }

    /// The first value of the named field, if any.
    public subscript(name: String) -> String? {
        get { stored.first { $0.name.equalsIgnoringASCIICase(name) }?.value }
        set {
            stored.removeAll { $0.name.equalsIgnoringASCIICase(name) }
            if let newValue { add(name, newValue) }
        }
    }

    /// Makes room for `count` fields in all.
    public mutating func reserveCapacity(_ count: Int) {
        stored.reserveCapacity(count)
    }

    /// Appends a field, keeping any others of the same name.
    public mutating func add(_ name: String, _ value: String) {
        stored.append(Field(name: name, value: value))
    }

    /// The fields in order, as `(name, value)` pairs.
    public func makeIterator() -> Iterator { Iterator(fields: stored.makeIterator()) }

    /// Walks the fields in order.
    public struct Iterator: IteratorProtocol {
        var fields: IndexingIterator<[Field]>

        /// The next field, or `nil` after the last.
        public mutating func next() -> (name: String, value: String)? {
            fields.next().map { ($0.name, $0.value) }
        }
    }
}

extension String {
    func equalsIgnoringASCIICase(_ other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        // On the bytes: zipping the two UTF-8 views cost ~30 instructions a byte, for every header looked up.
        var a = self, b = other
        return a.withUTF8 { a in
            b.withUTF8 { b in
                for index in 0..<a.count where a[index] != b[index] {
                    let lower = a[index] | 0x20
                    guard lower == b[index] | 0x20, lower >= UInt8(ascii: "a"), lower <= UInt8(ascii: "z") else { return false }
                }
                return true
            }
        }
    }
}
