// Fuzzes HTML escaping: a random string rendered as element text and as an
// attribute value must read back as exactly that string, and must add no
// markup. Checked here by decoding the five entities the writer emits; with
// SECTIONAL_HTML_DUMP=FILE each input's whole document is also appended to
// FILE (one JSON line) for the strict HTML5 parser check
// (scripts/checks/html_roundtrip.py).
import Foundation
import Sectional

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTMLEscaping(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    // Swift strings are always valid Unicode: this is what any input becomes.
    let text = String(decoding: input, as: UTF8.self)

    let asText = p { text }.render()
    checkEscaped(asText, prefix: "<p>", suffix: "</p>", text: text, input: input)
    let asAttribute = a(.title(text), .href("/x")) { "x" }.render()
    checkEscaped(asAttribute, prefix: #"<a title=""#, suffix: #"" href="/x">x</a>"#, text: text, input: input)
    let asDataAttribute = div(.data("section", text)) {}.render()
    checkEscaped(asDataAttribute, prefix: #"<div data-section=""#, suffix: #""></div>"#, text: text, input: input)

    if let dump = dumpFile { dump.append(text) }
    return 0
}

/// `rendered` must be `prefix`, the escaped text, `suffix`; the escaped text
/// must hold no `<`, `>`, `"`, `'` and no `&` but the writer's five entities,
/// and must decode to exactly `text`.
private func checkEscaped(_ rendered: String, prefix: String, suffix: String, text: String, input: [UInt8]) {
    // Compared as bytes: a combining mark after `>` would join it in one `Character`.
    let bytes = Array(rendered.utf8)
    guard bytes.count >= prefix.utf8.count + suffix.utf8.count, bytes.starts(with: prefix.utf8),
        bytes.reversed().starts(with: suffix.utf8.reversed())
    else {
        fuzzFailure("markup around the text changed: \(rendered.prefix(200).debugDescription)", input: input)
    }
    let escaped = Array(bytes.dropFirst(prefix.utf8.count).dropLast(suffix.utf8.count))
    var decoded: [UInt8] = []
    decoded.reserveCapacity(escaped.count)
    var index = 0
    while index < escaped.count {
        let byte = escaped[index]
        switch byte {
        case UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"):
            fuzzFailure("an unescaped \(UnicodeScalar(byte)) survived at byte \(index)", input: input)
        case UInt8(ascii: "&"):
            guard let (entity, character) = entities.first(where: { escaped[index...].starts(with: $0.0) }) else {
                fuzzFailure("a bare & at byte \(index)", input: input)
            }
            decoded.append(character)
            index += entity.count
        default:
            decoded.append(byte)
            index += 1
        }
    }
    if decoded != Array(text.utf8) { fuzzFailure("escaped text decodes to something else", input: input) }
}

private let entities: [([UInt8], UInt8)] = [
    (Array("&amp;".utf8), UInt8(ascii: "&")), (Array("&lt;".utf8), UInt8(ascii: "<")), (Array("&gt;".utf8), UInt8(ascii: ">")),
    (Array("&quot;".utf8), UInt8(ascii: "\"")), (Array("&#39;".utf8), UInt8(ascii: "'")),
]

/// Writes, per input, `{"text": …, "document": …}`: the text and a whole
/// page that carries it as title, as element text and as attribute values.
private final class DocumentDump: Sendable {
    let descriptor: Int32
    /// A head like the feed's: two metas, the title, an icon link.
    static let head = DocumentHead(
        language: "en", viewport: "width=device-width, initial-scale=1", icon: .init(href: "/favicon.svg", type: "image/svg+xml"))

    init?(path: String) {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if descriptor < 0 { return nil }
    }

    func append(_ text: String) {
        var html = HTMLWriter()
        HTMLDocument(title: text, head: Self.head) {
            main {
                p(.id("text")) { text }
                a(.id("attribute"), .title(text), .href("#")) { "x" }
                div(.id("data"), .data("value", text)) {}
            }
        }.render(into: &html)
        let document = html.withBytes { String(decoding: $0, as: UTF8.self) }
        guard var line = try? JSONSerialization.data(withJSONObject: ["text": text, "document": document]) else {
            fatalError("cannot encode a dump line")
        }
        line.append(10)
        _ = line.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

private let dumpFile: DocumentDump? = getenv("SECTIONAL_HTML_DUMP").flatMap { DocumentDump(path: String(cString: $0)) }
