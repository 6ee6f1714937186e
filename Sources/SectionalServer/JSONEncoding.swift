/// `Encodable` values as JSON, without Foundation: what `Response.json`
/// sends. The output is byte for byte `JSONEncoder`'s with `.sortedKeys`
/// and `.withoutEscapingSlashes` (and `.prettyPrinted` when asked), which a
/// test holds; keys sort by their UTF-8 bytes, as `JSONEncoder` sorts them.
/// Foundation's own types (`Date`, `URL`, `Data`) encode as their
/// `Encodable` conformances say, without `JSONEncoder`'s special cases.
enum JSONEncoding {
    /// `value` as JSON; throws `EncodingError` for a number JSON cannot hold (NaN, infinity).
    static func encode(_ value: some Encodable, pretty: Bool) throws -> [UInt8] {
        let root = JSONNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        var bytes: [UInt8] = []
        root.write(into: &bytes, indent: pretty ? 0 : nil)
        return bytes
    }
}

/// One value of the document being encoded: a class, so that a container
/// handed out for it keeps writing into it after the call that made it returns.
private final class JSONNode {
    enum Content {
        case empty
        /// A number, `true`, `false`, `null` or an escaped string, as written.
        case scalar([UInt8])
        case array([JSONNode])
        case object([String: JSONNode])
    }
    var content = Content.empty

    init() {}
    init(scalar: [UInt8]) { content = .scalar(scalar) }

    /// Makes this node an object (keeping members already set) and returns nothing: callers then set members.
    func becomeObject() {
        if case .object = content { return }
        content = .object([:])
    }

    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }

    func set(_ member: JSONNode, for key: String) {
        becomeObject()
        guard case .object(var members) = content else { return }
        content = .empty  // the dictionary is then uniquely referenced, and changed in place
        members[key] = member
        content = .object(members)
    }

    func append(_ element: JSONNode) {
        becomeArray()
        guard case .array(var elements) = content else { return }
        content = .empty
        elements.append(element)
        content = .array(elements)
    }

    var count: Int {
        switch content {
        case .array(let elements): elements.count
        case .object(let members): members.count
        default: 0
        }
    }

    /// Writes the node; `indent` is the pretty printer's depth, `nil` for compact output.
    func write(into bytes: inout [UInt8], indent: Int?) {
        switch content {
        case .empty:  // a value that encoded nothing: an empty object, as JSONEncoder writes it
            writeList([], open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), into: &bytes, indent: indent)
        case .scalar(let text): bytes += text
        case .array(let elements):
            writeList(elements.map { (nil, $0) }, open: UInt8(ascii: "["), close: UInt8(ascii: "]"), into: &bytes, indent: indent)
        case .object(let members):
            let sorted = members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
            writeList(sorted.map { ($0.key, $0.value) }, open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), into: &bytes, indent: indent)
        }
    }

    /// Elements or members between brackets; pretty, one a line, and an empty list as a blank line.
    private func writeList(_ entries: [(key: String?, node: JSONNode)], open: UInt8, close: UInt8, into bytes: inout [UInt8], indent: Int?) {
        bytes.append(open)
        let inner = indent.map { $0 + 1 }
        for (index, entry) in entries.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            Self.newLine(into: &bytes, indent: inner)
            if let key = entry.key {
                bytes += JSONWriter.quoted(key)
                bytes += indent == nil ? [UInt8(ascii: ":")] : Array(" : ".utf8)
            }
            entry.node.write(into: &bytes, indent: inner)
        }
        // Pretty, an empty list is a blank line between its brackets.
        if entries.isEmpty, indent != nil { bytes.append(UInt8(ascii: "\n")) }
        Self.newLine(into: &bytes, indent: indent)
        bytes.append(close)
    }

    private static func newLine(into bytes: inout [UInt8], indent: Int?) {
        guard let indent else { return }
        bytes.append(UInt8(ascii: "\n"))
        bytes += repeatElement(UInt8(ascii: " "), count: 2 * indent)
    }
}

/// The scalars JSON has, written.
private enum Scalar {
    static let null = Array("null".utf8)
    static func bool(_ value: Bool) -> [UInt8] { Array((value ? "true" : "false").utf8) }
    static func string(_ value: String) -> [UInt8] {
        JSONWriter.quoted(value)
    }
    static func integer(_ value: some BinaryInteger) -> [UInt8] { Array(String(value).utf8) }

    /// As `JSONEncoder` writes it: shortest digits, `3` for 3.0, `1e+20`; no NaN or infinity.
    static func floatingPoint<Value: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Value, at path: [any CodingKey])
        throws -> [UInt8]
    {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path, debugDescription: "JSON has no \(value)"))
        }
        let text = value.description
        return Array((text.hasSuffix(".0") ? String(text.dropLast(2)) : text).utf8)
    }
}

private struct NodeEncoder: Encoder {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedNodeContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedNodeContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleNodeContainer(node: node, codingPath: codingPath) }
}

/// A key for an array's element in a coding path, as `JSONEncoder` names it.
private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = "Index \(index)"
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

private struct KeyedNodeContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONNode
    let codingPath: [any CodingKey]

    private func set(_ scalar: [UInt8], _ key: Key) { node.set(JSONNode(scalar: scalar), for: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws { set(Scalar.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(Scalar.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(Scalar.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try Scalar.floatingPoint(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try Scalar.floatingPoint(value, at: codingPath + [key]), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(Scalar.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(Scalar.integer(value), key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let child = JSONNode()
        try value.encode(to: NodeEncoder(node: child, codingPath: codingPath + [key]))
        node.set(child, for: key.stringValue)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        let child = JSONNode()
        node.set(child, for: key.stringValue)
        return NodeEncoder(node: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = JSONNode()
        node.set(child, for: key.stringValue)
        return NodeEncoder(node: child, codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { superEncoder(named: "super") }
    mutating func superEncoder(forKey key: Key) -> any Encoder { superEncoder(named: key.stringValue) }

    private func superEncoder(named name: String) -> any Encoder {
        let child = JSONNode()
        node.set(child, for: name)
        return NodeEncoder(node: child, codingPath: codingPath)
    }
}

private struct UnkeyedNodeContainer: UnkeyedEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private func append(_ scalar: [UInt8]) { node.append(JSONNode(scalar: scalar)) }
    private var nextPath: [any CodingKey] { codingPath + [IndexKey(count)] }

    mutating func encodeNil() throws { append(Scalar.null) }
    mutating func encode(_ value: Bool) throws { append(Scalar.bool(value)) }
    mutating func encode(_ value: String) throws { append(Scalar.string(value)) }
    mutating func encode(_ value: Double) throws { append(try Scalar.floatingPoint(value, at: nextPath)) }
    mutating func encode(_ value: Float) throws { append(try Scalar.floatingPoint(value, at: nextPath)) }
    mutating func encode(_ value: Int) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: Int8) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: Int16) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: Int32) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: Int64) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: UInt) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: UInt8) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: UInt16) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: UInt32) throws { append(Scalar.integer(value)) }
    mutating func encode(_ value: UInt64) throws { append(Scalar.integer(value)) }

    mutating func encode(_ value: some Encodable) throws {
        let child = JSONNode()
        try value.encode(to: NodeEncoder(node: child, codingPath: nextPath))
        node.append(child)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let child = JSONNode()
        let path = nextPath
        node.append(child)
        return NodeEncoder(node: child, codingPath: path).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let child = JSONNode()
        let path = nextPath
        node.append(child)
        return NodeEncoder(node: child, codingPath: path).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let child = JSONNode()
        let path = nextPath
        node.append(child)
        return NodeEncoder(node: child, codingPath: path)
    }
}

private struct SingleNodeContainer: SingleValueEncodingContainer {
    let node: JSONNode
    let codingPath: [any CodingKey]

    private func set(_ scalar: [UInt8]) { node.content = .scalar(scalar) }

    mutating func encodeNil() throws { set(Scalar.null) }
    mutating func encode(_ value: Bool) throws { set(Scalar.bool(value)) }
    mutating func encode(_ value: String) throws { set(Scalar.string(value)) }
    mutating func encode(_ value: Double) throws { set(try Scalar.floatingPoint(value, at: codingPath)) }
    mutating func encode(_ value: Float) throws { set(try Scalar.floatingPoint(value, at: codingPath)) }
    mutating func encode(_ value: Int) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: Int8) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: Int16) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: Int32) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: Int64) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: UInt) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: UInt8) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: UInt16) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: UInt32) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: UInt64) throws { set(Scalar.integer(value)) }
    mutating func encode(_ value: some Encodable) throws { try value.encode(to: NodeEncoder(node: node, codingPath: codingPath)) }
}
