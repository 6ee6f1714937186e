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
        element(name, attributes: { _ in }, content: content)
    }

    /// `<name attribute>`, what `content` writes, `</name>`.
    @inlinable
    public mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, _ attribute: HTMLAttribute, content: (inout HTMLWriter) -> Void
    ) {
        element(name, attributes: { attribute.render(into: &$0) }, content: content)
    }

    /// `<name first second>`, what `content` writes, `</name>`.
    @inlinable
    public mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, _ first: HTMLAttribute, _ second: HTMLAttribute, content: (inout HTMLWriter) -> Void
    ) {
        element(
            name,
            attributes: { html in
                first.render(into: &html); second.render(into: &html)
            }, content: content)
    }

    /// `<name class="className">`, what `content` writes, `</name>`. The
    /// class comes from the program, as a tag's name does: written as is,
    /// with no attribute value made, copied or escaped. (`.class("…")`
    /// escapes even a literal: on the feed's sections, that test cost
    /// 1,800 instructions a page.)
    @inlinable
    public mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, class className: StaticString, content: (inout HTMLWriter) -> Void
    ) {
        element(
            name,
            attributes: { html in
                html.writeRaw(#" class=""#); html.writeRaw(className); html.writeRaw("\"")
            }, content: content)
    }

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
        _ name: Name.Type, attributes: (inout HTMLWriter) -> Void, content: (inout HTMLWriter) -> Void
    ) {
        writeRaw(Name.openTag)
        attributes(&self)
        writeRaw(">")
        content(&self)
        writeRaw(Name.closeTag)
    }

    /// Text, escaped: `& < > " '`.
    @inlinable
    public mutating func text(_ text: String) {
        writeEscaped(text)
    }

    /// Content rendered in place: a value that renders itself (an amount, a
    /// builder's element), the way the builder would place it.
    @inlinable
    public mutating func write(_ content: some HTML) {
        content.render(into: &self)
    }
}
