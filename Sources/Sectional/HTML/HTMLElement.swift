/// The name of an element, as a type: `HTMLElement<Tag.div, …>`.
///
/// An element `Tag` lacks takes a type and an alias:
///
/// ```swift
/// extension Tag {
///     enum dialog: HTMLTagName {
///         static var openTag: StaticString { "<dialog" }
///         static var closeTag: StaticString { "</dialog>" }
///     }
/// }
/// typealias dialog<Content: HTML> = HTMLElement<Tag.dialog, Content>
/// ```
public protocol HTMLTagName {
    /// `<div`: the start tag before its attributes.
    static var openTag: StaticString { get }
    /// `</div>`.
    static var closeTag: StaticString { get }
}

/// An element with attributes and content, e.g. `<div class="card">…</div>`.
/// Written through the tag aliases: `div(.class("card")) { "text" }`.
public struct HTMLElement<Tag: HTMLTagName, Content: HTML>: HTML {
    /// The attributes, in the order written.
    public var attributes: [HTMLAttribute] { (only.map { [$0] } ?? []) + listed }
    /// What goes between the start and end tags.
    public let content: Content
    /// An element's one attribute, kept without an array: most elements
    /// with attributes have one, and its value is often chosen at run time,
    /// when the array the call makes is an allocation a render.
    @usableFromInline let only: HTMLAttribute?
    @usableFromInline let listed: [HTMLAttribute]

    /// An element with one attribute and the content built: `div(.class("card")) { … }`.
    @inlinable
    public init(_ attribute: HTMLAttribute, @HTMLBuilder content: () -> Content) {
        only = attribute
        listed = []
        self.content = content()
    }

    /// An element with the attributes listed and the content built: `a(.href(url), .class("card")) { … }`.
    @inlinable
    public init(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> Content) {
        only = nil
        listed = attributes
        self.content = content()
    }

    /// An element whose attributes are chosen at run time, as an array.
    @inlinable
    public init(attributes: [HTMLAttribute], @HTMLBuilder content: () -> Content) {
        only = nil
        listed = attributes
        self.content = content()
    }

    @inlinable
    public func render(into html: inout HTMLWriter) {
        html.writeRaw(Tag.openTag)
        only?.render(into: &html)
        for attribute in listed { attribute.render(into: &html) }
        html.writeRaw(">")
        content.render(into: &html)
        html.writeRaw(Tag.closeTag)
    }
}

extension HTMLElement where Content == EmptyHTML {
    /// An element with no content, e.g. `<div class="spacer"></div>`.
    @inlinable
    public init(_ attributes: HTMLAttribute...) {
        self.init(attributes: attributes) { EmptyHTML() }
    }
}

/// An element without content or end tag, e.g. `<meta charset="utf-8">`.
public struct HTMLVoidElement<Tag: HTMLTagName>: HTML {
    /// The attributes, in the order written.
    public let attributes: [HTMLAttribute]

    /// An element with the attributes listed: `meta(.charset("utf-8"))`.
    @inlinable
    public init(_ attributes: HTMLAttribute...) {
        self.attributes = attributes
    }

    @inlinable
    public func render(into html: inout HTMLWriter) {
        html.writeRaw(Tag.openTag)
        for attribute in attributes { attribute.render(into: &html) }
        html.writeRaw(">")
    }
}
