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

    /// The head is written straight into the writer, as the stack's cards
    /// are: every page passes here.
    public func render(into html: inout HTMLWriter) {
        html.writeRaw("<!DOCTYPE html>\n<html lang=\"")
        html.writeEscaped(head.language)
        html.writeRaw(#""><head><meta charset="utf-8">"#)
        if let viewport = head.viewport {
            html.writeAttribute(#"<meta name="viewport" content=""#, viewport)
            html.writeRaw(">")
        }
        html.writeRaw("<title>")
        html.writeEscaped(title)
        html.writeRaw("</title>")
        for stylesheet in head.stylesheets { html.writeLink("stylesheet", stylesheet) }
        if let icon = head.icon {
            html.writeAttribute(#"<link rel="icon" href=""#, icon.href)
            html.writeAttribute(#" type=""#, icon.type)
            html.writeRaw(">")
        }
        if let canonicalURL { html.writeLink("canonical", canonicalURL) }
        for source in head.scripts {
            html.writeAttribute(#"<script src=""#, source)
            html.writeRaw(" defer></script>")
        }
        html.writeRaw("</head><body>")
        body.render(into: &html)
        html.writeRaw("</body></html>")
    }
}

extension HTMLWriter {
    /// `<link rel="REL" href="HREF">`, the URL escaped.
    fileprivate mutating func writeLink(_ rel: StaticString, _ href: String) {
        writeRaw(#"<link rel=""#)
        writeRaw(rel)
        writeAttribute(#"" href=""#, href)
        writeRaw(">")
    }
}
