/// The name of an element, as a type: `HTMLElement<Tag.div, …>`.
public protocol HTMLTagName {
    /// `<div`: the start tag before its attributes.
    static var openTag: StaticString { get }
    /// `</div>`.
    static var closeTag: StaticString { get }
}

/// An element with attributes and content, e.g. `<div class="card">…</div>`.
/// Written through the tag aliases: `div(.class("card")) { "text" }`.
public struct HTMLElement<Tag: HTMLTagName, Content: HTML>: HTML {
    public let attributes: [HTMLAttribute]
    public let content: Content

    public init(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> Content) {
        self.attributes = attributes
        self.content = content()
    }

    public init(attributes: [HTMLAttribute], @HTMLBuilder content: () -> Content) {
        self.attributes = attributes
        self.content = content()
    }

    public func render(into html: inout HTMLWriter) {
        html.writeRaw(Tag.openTag)
        for attribute in attributes { attribute.render(into: &html) }
        html.writeRaw(">")
        content.render(into: &html)
        html.writeRaw(Tag.closeTag)
    }
}

extension HTMLElement where Content == EmptyHTML {
    /// An element with no content, e.g. `<div class="spacer"></div>`.
    public init(_ attributes: HTMLAttribute...) {
        self.init(attributes: attributes) { EmptyHTML() }
    }
}

/// An element without content or end tag, e.g. `<meta charset="utf-8">`.
public struct HTMLVoidElement<Tag: HTMLTagName>: HTML {
    public let attributes: [HTMLAttribute]

    public init(_ attributes: HTMLAttribute...) {
        self.attributes = attributes
    }

    public func render(into html: inout HTMLWriter) {
        html.writeRaw(Tag.openTag)
        for attribute in attributes { attribute.render(into: &html) }
        html.writeRaw(">")
    }
}
