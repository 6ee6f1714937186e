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
    public var language: String
    /// The viewport meta's content, e.g. `width=device-width, initial-scale=1`.
    public var viewport: String?
    /// Linked as `rel=stylesheet`, in order; an out-of-order page's shadow tree links them too.
    public var stylesheets: [String]
    /// Loaded with `defer`, after the document is parsed.
    public var scripts: [String]
    /// Linked as `rel=icon`, when set.
    public var icon: Icon?

    /// A head in `language`; everything else is added only when given.
    public init(language: String, viewport: String? = nil, stylesheets: [String] = [], scripts: [String] = [], icon: Icon? = nil) {
        self.language = language
        self.viewport = viewport
        self.stylesheets = stylesheets
        self.scripts = scripts
        self.icon = icon
    }
}
