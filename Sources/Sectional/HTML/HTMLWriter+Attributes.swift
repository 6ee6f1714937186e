/// Attributes written in place, for an element written in place: as many
/// as it has, some only when a condition holds, a value written from parts
/// (text, numbers) with no string joined for it.
///
/// ```swift
/// html.element(Tag.option.self, attributes: { attributes in
///     attributes.attribute("value") { $0.text(question.id); $0.text(":"); $0.text(choice.id) }
///     if isChosen { attributes.attribute("selected") }
/// }) { $0.text(choice.label) }
/// ```
extension HTMLWriter {
    /// `<name` and the attributes `attributes` writes, `>`, what `content` writes, `</name>`.
    @inlinable @inline(__always)
    public mutating func element<Name: HTMLTagName>(
        _ name: Name.Type, attributes: (inout HTMLAttributeWriter) -> Void, content: (inout HTMLWriter) -> Void
    ) {
        element(name, rawAttributes: { $0.writeAttributes(attributes) }, content: content)
    }

    /// `<input type="hidden" name="name" value="value">`: a field a form
    /// posts unseen (the page to go back to, a record's id); `value` escaped.
    @inlinable @inline(__always)
    public mutating func hiddenInput(name: StaticString, value: String) {
        hiddenInput(name: name) { $0.text(value) }
    }

    /// `<input type="hidden" name="name" value="…">`, its value written
    /// by `value` from parts (a form's token as its digits, an id).
    @inlinable @inline(__always)
    public mutating func hiddenInput(name: StaticString, value: (inout HTMLAttributeValueWriter) -> Void) {
        output.reserve(name.utf8CodeUnitCount &+ 36)
        output.appendReserved(#"<input type="hidden" name=""#)
        output.appendReserved(name)
        output.appendReserved(#"" value=""#)
        writeAttributeValue(value)
        writeRaw(#"">"#)
    }

    /// Lends the writer to `attributes` as an attribute writer, and takes it back.
    @inlinable @inline(__always)
    mutating func writeAttributes(_ attributes: (inout HTMLAttributeWriter) -> Void) {
        var writer = HTMLAttributeWriter(html: self)
        attributes(&writer)
        self = writer.html
    }

    /// Lends the writer to `value` as an attribute value's writer, and takes it back.
    @inlinable @inline(__always)
    mutating func writeAttributeValue(_ value: (inout HTMLAttributeValueWriter) -> Void) {
        var writer = HTMLAttributeValueWriter(html: self)
        value(&writer)
        self = writer.html
    }
}

/// What an element's attributes are written with, in its start tag: each
/// name from the program, written as it is; each value escaped.
public struct HTMLAttributeWriter: ~Copyable {
    @usableFromInline var html: HTMLWriter

    @inlinable init(html: consuming HTMLWriter) { self.html = html }

    /// ` name="value"`, a value from the program (`attribute("method", "post")`):
    /// escaped, and, when it holds none of `& < > " '` (found so when
    /// compiling, for a literal), written with its name in one piece.
    /// Transparent, as `HTMLWriter.text(_: StaticString)` is.
    @_transparent
    public mutating func attribute(_ name: StaticString, _ value: StaticString) {
        let length = value.utf8CodeUnitCount
        guard HTMLWriter.isClean(UnsafeRawPointer(value.utf8Start), count: length) else {
            writeName(name)
            html.writeEscaped(UnsafeBufferPointer(start: value.utf8Start, count: length))
            return html.writeRaw("\"")
        }
        html.output.reserve(name.utf8CodeUnitCount &+ length &+ 4)
        html.output.appendReserved(" ")
        html.output.appendReserved(name)
        html.output.appendReserved(#"=""#)
        html.output.appendReserved(value)
        html.output.appendReserved("\"")
    }

    /// ` name="value"`, `value` escaped.
    ///
    /// Disfavoured, so that a literal value is a `StaticString`.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public mutating func attribute(_ name: StaticString, _ value: String) {
        writeName(name)
        html.writeEscaped(value)
        html.writeRaw("\"")
    }

    /// ` name="…"`, its value written by `value` from parts, each escaped:
    /// `attribute("viewBox") { $0.text("0 0 "); $0.write(width) }`.
    @inlinable @inline(__always)
    public mutating func attribute(_ name: StaticString, value: (inout HTMLAttributeValueWriter) -> Void) {
        writeName(name)
        html.writeAttributeValue(value)
        html.writeRaw("\"")
    }

    /// ` name`: a boolean attribute, e.g. `selected`, `required`.
    @inlinable @inline(__always)
    public mutating func attribute(_ name: StaticString) {
        html.output.reserve(name.utf8CodeUnitCount &+ 1)
        html.output.appendReserved(" ")
        html.output.appendReserved(name)
    }

    /// ` name="`, in one piece.
    @inlinable @inline(__always)
    mutating func writeName(_ name: StaticString) {
        html.output.reserve(name.utf8CodeUnitCount &+ 3)
        html.output.appendReserved(" ")
        html.output.appendReserved(name)
        html.output.appendReserved(#"=""#)
    }
}

/// What an attribute's value is written with, between its quotes: text,
/// escaped, and numbers; nothing it writes can end the value.
public struct HTMLAttributeValueWriter: ~Copyable {
    @usableFromInline var html: HTMLWriter

    @inlinable init(html: consuming HTMLWriter) { self.html = html }

    /// Text, escaped: `& < > " '`.
    ///
    /// Disfavoured, so that a literal is a `StaticString`.
    @_disfavoredOverload
    @inlinable @inline(__always)
    public mutating func text(_ text: String) { html.writeEscaped(text) }

    /// Text from the program, escaped for nothing when it holds none of
    /// `& < > " '`; transparent, as `HTMLWriter.text(_: StaticString)` is.
    @_transparent
    public mutating func text(_ literal: StaticString) { html.text(literal) }

    /// Text given as its UTF-8 bytes, escaped.
    @inlinable @inline(__always)
    public mutating func text(_ utf8: Span<UInt8>) { html.text(utf8) }

    /// An integer in decimal, e.g. `-42`, with no string made for it.
    @inlinable @inline(__always)
    public mutating func write(_ number: Int) { html.writeDecimal(number) }
}
