/// A whole page: doctype, head (title, stylesheet, canonical link, script)
/// and the body's content.
///
/// A streamed page sends `renderOpening` first and `renderClosing` last;
/// together with the body in between they are exactly `render`.
public struct HTMLDocument<Body: HTML>: HTML {
    public var title: String
    public var stylesheets: [String]
    public var scripts: [String]
    public var canonicalURL: String?
    public var body: Body

    public init(
        title: String, stylesheets: [String] = [], scripts: [String] = [], canonicalURL: String? = nil,
        @HTMLBuilder body: () -> Body
    ) {
        self.title = title
        self.stylesheets = stylesheets
        self.scripts = scripts
        self.canonicalURL = canonicalURL
        self.body = body()
    }

    public func render(into html: inout HTMLWriter) {
        renderOpening(into: &html)
        body.render(into: &html)
        renderClosing(into: &html)
    }

    /// Everything up to and including `<body>`.
    public func renderOpening(into html: inout HTMLWriter) {
        html.writeRaw("<!DOCTYPE html>\n<html lang=\"en\">")
        head {
            meta(.charset("utf-8"))
            meta(.name("viewport"), .content("width=device-width, initial-scale=1"))
            Sectional.title { title }
            for stylesheet in stylesheets { link(.rel("stylesheet"), .href(stylesheet)) }
            link(.rel("icon"), .href("/favicon.svg"), .type("image/svg+xml"))
            if let canonicalURL { link(.rel("canonical"), .href(canonicalURL)) }
            for source in scripts { Sectional.script(.src(source), .defer) }
        }.render(into: &html)
        html.writeRaw("<body>")
    }

    /// `</body></html>`.
    public func renderClosing(into html: inout HTMLWriter) {
        html.writeRaw("</body></html>")
    }
}

extension HTMLDocument where Body == EmptyHTML {
    /// A document whose body the caller writes between opening and closing.
    public init(title: String, stylesheets: [String] = [], scripts: [String] = [], canonicalURL: String? = nil) {
        self.init(title: title, stylesheets: stylesheets, scripts: scripts, canonicalURL: canonicalURL) { EmptyHTML() }
    }
}
