/// Elements written in place: the start tag, what the content writes, the
/// end tag, with no element value built.
///
/// The builder (`td(.class("amount")) { … }`) makes a tree of values and
/// then renders it; for a table's rows, making, moving and destroying
/// those values cost more than writing their bytes (the feed's balances
/// table: 10,600 instructions a page as a tree, 6,800 in place). Written
/// in place, tags still close by construction and text is still escaped
/// by type. Meant for the hottest sections; the builder stays the way to
/// write the rest.
///
/// ```swift
/// html.element(Tag.tr.self) { html in
///     html.element(Tag.td.self, .class("name")) { $0.text(account.name) }
///     html.element(Tag.td.self, .class("amount")) { $0.write(account.balance) }
/// }
/// ```
extension HTMLWriter {
    /// `<name>`, what `content` writes, `</name>`.
    @inlinable
    public mutating func element<Name: HTMLTagName>(_ name: Name.Type, content: (inout HTMLWriter) -> Void) {
        // The start tag in one piece.
        output.reserve(Name.openTag.utf8CodeUnitCount &+ 1)
        output.appendReserved(Name.openTag)
        output.appendReserved(">")
        content(&self)
        writeRaw(Name.closeTag)
    }

    /// `<name attribute>`, what `content` writes, `</name>`.
    @inlinable
    public mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, _ attribute: HTMLAttribute, content: (inout HTMLWriter) -> Void
    ) {
        element(name, rawAttributes: { attribute.render(into: &$0) }, content: content)
    }

    /// `<name first second>`, what `content` writes, `</name>`.
    @inlinable
    public mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, _ first: HTMLAttribute, _ second: HTMLAttribute, content: (inout HTMLWriter) -> Void
    ) {
        element(
            name,
            rawAttributes: { html in
                first.render(into: &html); second.render(into: &html)
            }, content: content)
    }

    /// `<name class="className">`, what `content` writes, `</name>`. The
    /// class comes from the program, as a tag's name does: written as is,
    /// with no attribute value made, copied or escaped. (`.class("…")`
    /// escapes even a literal: on the feed's sections, that test cost
    /// 1,800 instructions a page.)
    @inlinable @inline(__always)
    public mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, class className: StaticString, content: (inout HTMLWriter) -> Void
    ) {
        // The start tag in one piece: room made once for its four parts.
        output.reserve(Name.openTag.utf8CodeUnitCount &+ className.utf8CodeUnitCount &+ 10)
        output.appendReserved(Name.openTag)
        output.appendReserved(#" class=""#)
        output.appendReserved(className)
        output.appendReserved(#"">"#)
        content(&self)
        writeRaw(Name.closeTag)
    }

    /// `<name class="className">` alone, for a container whose start and end
    /// are written in separate steps (a page controller's opening and
    /// closing); `endTag(_:)` closes it. The class is the program's, as in
    /// `element(_:class:content:)`.
    @inlinable
    public mutating func startTag<Name: HTMLTagName>(_ name: Name.Type, class className: StaticString) {
        output.reserve(Name.openTag.utf8CodeUnitCount &+ className.utf8CodeUnitCount &+ 10)
        output.appendReserved(Name.openTag)
        output.appendReserved(#" class=""#)
        output.appendReserved(className)
        output.appendReserved(#"">"#)
    }

    /// `</name>`, closing what `startTag(_:class:)` opened.
    @inlinable
    public mutating func endTag<Name: HTMLTagName>(_ name: Name.Type) { writeRaw(Name.closeTag) }

    /// `<name>`, `text` escaped, `</name>`: a leaf with no content closure
    /// (a closure copies the values it captures, retaining their strings).
    @inlinable
    public mutating func element<Name: HTMLTagName>(_ name: Name.Type, text: String) {
        element(name, content: { $0.writeEscaped(text) })
    }

    /// `<name class="className">`, `text` escaped, `</name>`.
    @inlinable
    public mutating func element<Name: HTMLTagName>(_ name: Name.Type, class className: StaticString, text: String) {
        element(name, class: className, content: { $0.writeEscaped(text) })
    }

    /// The start tag with what `attributes` writes, the content, the end tag.
    @inlinable @inline(__always)
    mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, rawAttributes: (inout HTMLWriter) -> Void, content: (inout HTMLWriter) -> Void
    ) {
        writeRaw(Name.openTag)
        rawAttributes(&self)
        writeRaw(">")
        content(&self)
        writeRaw(Name.closeTag)
    }

    /// Text, escaped: `& < > " '`.
    ///
    /// Disfavoured, so that a literal (`text(" owed")`) is a `StaticString`.
    @_disfavoredOverload
    @inlinable
    public mutating func text(_ text: String) {
        writeEscaped(text)
    }

    /// Text from the program, escaped as any text is: `text("\u{2212}$")`.
    ///
    /// A literal is tested for `& < > " '` where this is inlined, on the
    /// program's constant bytes: one with none of them (most) is copied as
    /// markup is, with no string made nor call to escape it. Transparent,
    /// so that it is inlined into long renderers too, where the optimiser
    /// may pass over `@inline(__always)` (and a call tests at run time).
    @_transparent
    public mutating func text(_ literal: StaticString) {
        let length = literal.utf8CodeUnitCount
        if Self.isClean(UnsafeRawPointer(literal.utf8Start), count: length) {
            output.append(literal)
        } else {
            writeEscaped(UnsafeBufferPointer(start: literal.utf8Start, count: length))
        }
    }

    /// Text given as its UTF-8 bytes (a buffer's, a token's digits: no
    /// string made of them), escaped: `& < > " '`.
    @inlinable
    public mutating func text(_ utf8: Span<UInt8>) {
        utf8.withUnsafeBufferPointer { writeEscaped($0) }
    }

    /// Content rendered in place: a value that renders itself (an amount, a
    /// builder's element), the way the builder would place it.
    @inlinable
    public mutating func write(_ content: some HTML) {
        content.render(into: &self)
    }
}
