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
        html.writeDocumentOpening(title: title, head: head, canonicalURL: canonicalURL)
        body.render(into: &html)
        html.writeRaw("</body></html>")
    }
}

extension HTMLWriter {
    /// Everything of a document before its body's content: the doctype, the
    /// head and `<body>`. A composed page writes it with no `HTMLDocument`
    /// made (whose title and head would be copied, and its body a closure).
    mutating func writeDocumentOpening(title: String, head: DocumentHead, canonicalURL: String?) {
        writeRaw("<!DOCTYPE html>\n<html lang=\"")
        writeEscaped(head.language)
        writeRaw(#""><head><meta charset="utf-8">"#)
        if let viewport = head.viewport {
            writeAttribute(#"<meta name="viewport" content=""#, viewport)
            writeRaw(">")
        }
        writeRaw("<title>")
        writeEscaped(title)
        writeRaw("</title>")
        for stylesheet in head.stylesheets { writeLink("stylesheet", stylesheet) }
        if let icon = head.icon {
            writeAttribute(#"<link rel="icon" href=""#, icon.href)
            writeAttribute(#" type=""#, icon.type)
            writeRaw(">")
        }
        if let canonicalURL { writeLink("canonical", canonicalURL) }
        for source in head.scripts {
            writeAttribute(#"<script src=""#, source)
            writeRaw(" defer></script>")
        }
        writeRaw("</head><body>")
    }

    /// `<link rel="REL" href="HREF">`, the URL escaped.
    fileprivate mutating func writeLink(_ rel: StaticString, _ href: String) {
        writeRaw(#"<link rel=""#)
        writeRaw(rel)
        writeAttribute(#"" href=""#, href)
        writeRaw(">")
    }
}
