/// A whole page: doctype, head (title, the app's `DocumentHead`, canonical
/// link) and the body's content.
public struct HTMLDocument<Body: HTML>: HTML {
    /// The document's `<title>`, escaped.
    public var title: String
    /// What the app puts in every head.
    public var head: DocumentHead
    /// Linked as `rel=canonical`, when set.
    public var canonicalURL: String?
    /// What goes in `<body>`.
    public var body: Body

    /// A document of the built `body`, with its title, the app's head and an optional canonical link.
    public init(title: String, head: DocumentHead, canonicalURL: String? = nil, @HTMLBuilder body: () -> Body) {
        self.title = title
        self.head = head
        self.canonicalURL = canonicalURL
        self.body = body()
    }

    public func render(into html: inout HTMLWriter) {
        html.writeRaw("<!DOCTYPE html>\n<html lang=\"")
        html.writeEscaped(head.language)
        html.writeRaw("\">")
        Sectional.head {
            meta(.charset("utf-8"))
            if let viewport = head.viewport { meta(.name("viewport"), .content(viewport)) }
            Sectional.title { title }
            for stylesheet in head.stylesheets { link(.rel("stylesheet"), .href(stylesheet)) }
            if let icon = head.icon { link(.rel("icon"), .href(icon.href), .type(icon.type)) }
            if let canonicalURL { link(.rel("canonical"), .href(canonicalURL)) }
            for source in head.scripts { Sectional.script(.src(source), .defer) }
        }.render(into: &html)
        html.writeRaw("<body>")
        body.render(into: &html)
        html.writeRaw("</body></html>")
    }
}
