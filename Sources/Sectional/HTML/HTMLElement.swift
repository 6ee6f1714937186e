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
    public var attributes: [HTMLAttribute] {
        switch storedAttributes {
        case .none: []
        case .one(let attribute): [attribute]
        case .many(let attributes): attributes
        }
    }
    /// What goes between the start and end tags.
    public let content: Content
    /// Most elements have no attribute or one, and an element's value is
    /// made and destroyed on every render: kept without an array, those
    /// cost no array to make (the call's variadic one) nor to release.
    @usableFromInline let storedAttributes: StoredAttributes

    @usableFromInline enum StoredAttributes {
        case none
        case one(HTMLAttribute)
        case many([HTMLAttribute])
    }

    /// An element with one attribute and the content built: `div(.class("card")) { … }`.
    @inlinable
    public init(_ attribute: HTMLAttribute, @HTMLBuilder content: () -> Content) {
        storedAttributes = .one(attribute)
        self.content = content()
    }

    /// An element with the attributes listed and the content built: `a(.href(url), .class("card")) { … }`.
    @inlinable
    public init(_ attributes: HTMLAttribute..., @HTMLBuilder content: () -> Content) {
        self.init(attributes: attributes, content: content)
    }

    /// An element whose attributes are chosen at run time, as an array.
    @inlinable
    public init(attributes: [HTMLAttribute], @HTMLBuilder content: () -> Content) {
        storedAttributes = attributes.isEmpty ? .none : .many(attributes)
        self.content = content()
    }

    @inlinable
    public func render(into html: inout HTMLWriter) {
        html.writeRaw(Tag.openTag)
        switch storedAttributes {
        case .none: break
        case .one(let attribute): attribute.render(into: &html)
        case .many(let attributes): for attribute in attributes { attribute.render(into: &html) }
        }
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
