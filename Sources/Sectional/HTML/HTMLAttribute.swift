/// An attribute of an element. Its value is always escaped when rendered.
public struct HTMLAttribute: Sendable {
    @usableFromInline let parts: Parts

    /// What an attribute keeps: strings, or, for a class written as a
    /// literal (`.class("badge")`, most of a page's attributes), the
    /// program's own static text, which an element tree holds, copies and
    /// destroys with no reference counted.
    @usableFromInline enum Parts: Sendable {
        /// ` name="` and the value's start (or ` name` for a boolean attribute),
        /// written in one piece; then the value, or what follows its start,
        /// escaped (`nil` for a boolean attribute).
        case text(prefix: String, escapedPart: String?)
        /// `class` with a literal value, escaped when written.
        case literalClass(StaticString)
    }

    /// An attribute; `name` is written as is, so it must come from the program, never from input.
    /// A `nil` value renders a boolean attribute (`checked`).
    @inlinable
    public init(_ name: String, _ value: String?) {
        parts = .text(prefix: value == nil ? " " + name : " " + name + "=\"", escapedPart: value)
    }

    /// An attribute whose value is `start`, written as is, then `value`,
    /// escaped: `class="alert alert-warning"` from a severity, with no
    /// string joined per render (a literal `name` and `start` are joined
    /// when compiling). Like `name`, `start` must come from the program.
    @inlinable
    public init(_ name: String, start: String, _ value: String) {
        parts = .text(prefix: " " + name + "=\"" + start, escapedPart: value)
    }

    @inlinable
    init(literalClass value: StaticString) {
        parts = .literalClass(value)
    }

    /// The attribute's name, e.g. `class`.
    public var name: String {
        switch parts {
        case .text(let prefix, _): String(prefix.dropFirst().prefix { $0 != "=" })
        case .literalClass: "class"
        }
    }

    /// The attribute's value, e.g. `alert alert-warning`; `nil` for a boolean attribute.
    public var value: String? {
        switch parts {
        case .text(let prefix, let escapedPart):
            guard let escapedPart else { return nil }
            guard let equals = prefix.firstIndex(of: "=") else { return escapedPart }
            return String(prefix[prefix.index(equals, offsetBy: 2)...]) + escapedPart
        case .literalClass(let value):
            return value.description
        }
    }

    @inlinable @inline(__always)
    func render(into html: inout HTMLWriter) {
        switch parts {
        case .text(let prefix, let escapedPart):
            html.writeRaw(prefix)
            if let escapedPart {
                html.writeEscaped(escapedPart)
                html.writeRaw("\"")
            }
        case .literalClass(let value):
            html.writeRaw(#" class=""#)
            html.writeEscaped(UnsafeBufferPointer(start: value.utf8Start, count: value.utf8CodeUnitCount))
            html.writeRaw("\"")
        }
    }
}

extension HTMLAttribute {
    /// The `class` attribute: space-separated class names.
    ///
    /// Disfavoured, so that a literal (`.class("badge")`) is a `StaticString`, kept as it is.
    @_disfavoredOverload
    @inlinable public static func `class`(_ value: String) -> HTMLAttribute { HTMLAttribute("class", value) }
    /// The `class` attribute with a literal value: kept as the program's static text, escaped when written.
    @inlinable public static func `class`(_ value: StaticString) -> HTMLAttribute { HTMLAttribute(literalClass: value) }
    /// The `class` attribute, its value `start` (from the program) then `value`: `.class("alert alert-", severity)`.
    @inlinable public static func `class`(_ start: String, _ value: String) -> HTMLAttribute { HTMLAttribute("class", start: start, value) }
    /// The `id` attribute: unique in the document.
    @inlinable public static func id(_ value: String) -> HTMLAttribute { HTMLAttribute("id", value) }
    /// The `href` attribute: where a link or a linked resource points.
    @inlinable public static func href(_ value: String) -> HTMLAttribute { HTMLAttribute("href", value) }
    /// The `src` attribute: an image's or a script's URL.
    @inlinable public static func src(_ value: String) -> HTMLAttribute { HTMLAttribute("src", value) }
    /// The `rel` attribute: what a linked resource is, e.g. `stylesheet`.
    @inlinable public static func rel(_ value: String) -> HTMLAttribute { HTMLAttribute("rel", value) }
    /// The `type` attribute: an input's kind or a resource's media type.
    @inlinable public static func type(_ value: String) -> HTMLAttribute { HTMLAttribute("type", value) }
    /// The `name` attribute: a form field's, a meta's or a slot's name.
    @inlinable public static func name(_ value: String) -> HTMLAttribute { HTMLAttribute("name", value) }
    /// The `value` attribute: a control's value.
    @inlinable public static func value(_ value: String) -> HTMLAttribute { HTMLAttribute("value", value) }
    /// The `title` attribute: advisory text, often shown as a tooltip.
    @inlinable public static func title(_ value: String) -> HTMLAttribute { HTMLAttribute("title", value) }
    /// The `action` attribute: where a form is sent.
    @inlinable public static func action(_ value: String) -> HTMLAttribute { HTMLAttribute("action", value) }
    /// The `method` attribute: how a form is sent, `get` or `post`.
    @inlinable public static func method(_ value: String) -> HTMLAttribute { HTMLAttribute("method", value) }
    /// The `role` attribute: an ARIA role, e.g. `status`.
    @inlinable public static func role(_ value: String) -> HTMLAttribute { HTMLAttribute("role", value) }
    /// The `lang` attribute: the content's language, e.g. `en`.
    @inlinable public static func lang(_ value: String) -> HTMLAttribute { HTMLAttribute("lang", value) }
    /// The `content` attribute: a meta's value.
    @inlinable public static func content(_ value: String) -> HTMLAttribute { HTMLAttribute("content", value) }
    /// The `charset` attribute: a meta's character encoding.
    @inlinable public static func charset(_ value: String) -> HTMLAttribute { HTMLAttribute("charset", value) }
    /// The `max` attribute: a `<progress>`'s or a number field's highest value.
    @inlinable public static func max(_ value: String) -> HTMLAttribute { HTMLAttribute("max", value) }
    /// The `datetime` attribute: a `<time>`'s machine-readable value.
    @inlinable public static func datetime(_ value: String) -> HTMLAttribute { HTMLAttribute("datetime", value) }
    /// `aria-NAME="value"`.
    @inlinable public static func aria(_ name: String, _ value: String) -> HTMLAttribute { HTMLAttribute("aria-" + name, value) }
    /// `data-NAME="value"`.
    @inlinable public static func data(_ name: String, _ value: String) -> HTMLAttribute { HTMLAttribute("data-" + name, value) }
    /// The boolean `checked` attribute: a checkbox or radio button is on.
    @inlinable public static var checked: HTMLAttribute { HTMLAttribute("checked", nil) }
    /// The boolean `required` attribute: a field must be filled in.
    @inlinable public static var required: HTMLAttribute { HTMLAttribute("required", nil) }
    /// The boolean `selected` attribute: an option is chosen.
    @inlinable public static var selected: HTMLAttribute { HTMLAttribute("selected", nil) }
    /// `for="id"`: the control a label names.
    @inlinable public static func labelFor(_ id: String) -> HTMLAttribute { HTMLAttribute("for", id) }
    /// The boolean `defer` attribute: a script runs once the document is parsed.
    @inlinable public static var `defer`: HTMLAttribute { HTMLAttribute("defer", nil) }
}
