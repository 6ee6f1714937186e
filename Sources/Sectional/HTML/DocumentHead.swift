/// What an app puts in every page's head: its language, stylesheets,
/// scripts and icon. Sectional assumes none of them.
///
/// ```swift
/// DocumentHead(language: "en", viewport: "width=device-width, initial-scale=1",
///              stylesheets: ["/styles.css"], scripts: ["/app.js"],
///              icon: .init(href: "/favicon.svg", type: "image/svg+xml"))
/// ```
public struct DocumentHead: Sendable, Equatable {
    public struct Icon: Sendable, Equatable {
        public var href: String
        /// Its media type, e.g. `image/svg+xml`.
        public var type: String

        public init(href: String, type: String) {
            self.href = href
            self.type = type
        }
    }

    /// The `lang` of `<html>`, e.g. `en`.
    public var language: String
    /// The viewport meta's content, e.g. `width=device-width, initial-scale=1`.
    public var viewport: String?
    public var stylesheets: [String]
    /// Loaded with `defer`, after the document is parsed.
    public var scripts: [String]
    public var icon: Icon?

    public init(language: String, viewport: String? = nil, stylesheets: [String] = [], scripts: [String] = [], icon: Icon? = nil) {
        self.language = language
        self.viewport = viewport
        self.stylesheets = stylesheets
        self.scripts = scripts
        self.icon = icon
    }
}
