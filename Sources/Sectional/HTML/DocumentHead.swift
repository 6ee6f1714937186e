/// What an app puts in every page's head: its language, stylesheets,
/// scripts and icon. Sectional assumes none of them.
///
/// ```swift
/// DocumentHead(language: "en", viewport: "width=device-width, initial-scale=1",
///              stylesheets: ["/styles.css"], scripts: ["/app.js"],
///              icon: .init(href: "/favicon.svg", type: "image/svg+xml"))
/// ```
public struct DocumentHead: Sendable, Equatable {
    /// The page's icon, linked as `rel=icon`.
    public struct Icon: Sendable, Equatable {
        /// The icon's URL, e.g. `/favicon.svg`.
        public var href: String
        /// Its media type, e.g. `image/svg+xml`.
        public var type: String

        /// The icon at `href`, of media type `type`.
        public init(href: String, type: String) {
            self.href = href
            self.type = type
        }
    }

    /// The `lang` of `<html>`, e.g. `en`.
    public var language: String {
        get { fields.language }
        set { fields = fields.with { $0.language = newValue } }
    }
    /// The viewport meta's content, e.g. `width=device-width, initial-scale=1`.
    public var viewport: String? {
        get { fields.viewport }
        set { fields = fields.with { $0.viewport = newValue } }
    }
    /// Linked as `rel=stylesheet`, in order; an out-of-order page's shadow tree links them too.
    public var stylesheets: [String] {
        get { fields.stylesheets }
        set { fields = fields.with { $0.stylesheets = newValue } }
    }
    /// Loaded with `defer`, after the document is parsed.
    public var scripts: [String] {
        get { fields.scripts }
        set { fields = fields.with { $0.scripts = newValue } }
    }
    /// Linked as `rel=icon`, when set.
    public var icon: Icon? {
        get { fields.icon }
        set { fields = fields.with { $0.icon = newValue } }
    }

    /// The fields in one object, never changed once made (a change makes
    /// another): every page's document carries its site's head, and a copy
    /// then retains one reference, not six.
    private final class Fields: Sendable {
        struct Values: Sendable, Equatable {
            var language: String
            var viewport: String?
            var stylesheets: [String]
            var scripts: [String]
            var icon: Icon?
        }
        let values: Values
        init(_ values: Values) { self.values = values }

        var language: String { values.language }
        var viewport: String? { values.viewport }
        var stylesheets: [String] { values.stylesheets }
        var scripts: [String] { values.scripts }
        var icon: Icon? { values.icon }

        /// These fields with one changed.
        func with(_ change: (inout Values) -> Void) -> Fields {
            var values = values
            change(&values)
            return Fields(values)
        }
    }

    private var fields: Fields

    /// A head in `language`; everything else is added only when given.
    public init(language: String, viewport: String? = nil, stylesheets: [String] = [], scripts: [String] = [], icon: Icon? = nil) {
        fields = Fields(.init(language: language, viewport: viewport, stylesheets: stylesheets, scripts: scripts, icon: icon))
    }

    /// Heads are equal when their fields are.
    public static func == (lhs: DocumentHead, rhs: DocumentHead) -> Bool {
        lhs.fields === rhs.fields || lhs.fields.values == rhs.fields.values
    }
}
