/// An attribute of an element. Its value is always escaped when rendered.
public struct HTMLAttribute: Sendable {
    /// ` name="` (or ` name` for a boolean attribute): written in one piece.
    private let prefix: String
    /// `nil` renders a boolean attribute (`checked`).
    public let value: String?

    /// An attribute; `name` is written as is, so it must come from the program, never from input.
    public init(_ name: String, _ value: String?) {
        prefix = value == nil ? " " + name : " " + name + "=\""
        self.value = value
    }

    public var name: String {
        String(prefix.dropFirst().prefix { $0 != "=" })
    }

    func render(into html: inout HTMLWriter) {
        html.writeRaw(prefix)
        if let value {
            html.writeEscaped(value)
            html.writeRaw("\"")
        }
    }
}

extension HTMLAttribute {
    public static func `class`(_ value: String) -> HTMLAttribute { HTMLAttribute("class", value) }
    public static func id(_ value: String) -> HTMLAttribute { HTMLAttribute("id", value) }
    public static func href(_ value: String) -> HTMLAttribute { HTMLAttribute("href", value) }
    public static func src(_ value: String) -> HTMLAttribute { HTMLAttribute("src", value) }
    public static func rel(_ value: String) -> HTMLAttribute { HTMLAttribute("rel", value) }
    public static func type(_ value: String) -> HTMLAttribute { HTMLAttribute("type", value) }
    public static func name(_ value: String) -> HTMLAttribute { HTMLAttribute("name", value) }
    public static func value(_ value: String) -> HTMLAttribute { HTMLAttribute("value", value) }
    public static func title(_ value: String) -> HTMLAttribute { HTMLAttribute("title", value) }
    public static func action(_ value: String) -> HTMLAttribute { HTMLAttribute("action", value) }
    public static func method(_ value: String) -> HTMLAttribute { HTMLAttribute("method", value) }
    public static func role(_ value: String) -> HTMLAttribute { HTMLAttribute("role", value) }
    public static func lang(_ value: String) -> HTMLAttribute { HTMLAttribute("lang", value) }
    public static func content(_ value: String) -> HTMLAttribute { HTMLAttribute("content", value) }
    public static func charset(_ value: String) -> HTMLAttribute { HTMLAttribute("charset", value) }
    public static func datetime(_ value: String) -> HTMLAttribute { HTMLAttribute("datetime", value) }
    /// `aria-NAME="value"`.
    public static func aria(_ name: String, _ value: String) -> HTMLAttribute { HTMLAttribute("aria-" + name, value) }
    /// `data-NAME="value"`.
    public static func data(_ name: String, _ value: String) -> HTMLAttribute { HTMLAttribute("data-" + name, value) }
    public static var checked: HTMLAttribute { HTMLAttribute("checked", nil) }
    public static var required: HTMLAttribute { HTMLAttribute("required", nil) }
    public static var selected: HTMLAttribute { HTMLAttribute("selected", nil) }
    /// `for="id"`: the control a label names.
    public static func labelFor(_ id: String) -> HTMLAttribute { HTMLAttribute("for", id) }
    public static var `defer`: HTMLAttribute { HTMLAttribute("defer", nil) }
}
