/// Anything that renders as HTML.
///
/// A `String` is always escaped text; markup comes from elements or, rarely,
/// from `RawHTML`, which must be spelled out.
///
/// ```swift
/// struct Greeting: HTML {
///     var name: String
///     func render(into html: inout HTMLWriter) {
///         p(.class("greeting")) { "Hello, \(name)!" }.render(into: &html)
///     }
/// }
/// ```
public protocol HTML {
    /// Appends this content's UTF-8 bytes to `html`.
    func render(into html: inout HTMLWriter)
}

extension HTML {
    /// The rendered markup as a string; meant for tests and small pieces.
    public func render() -> String {
        var writer = HTMLWriter()
        render(into: &writer)
        return writer.withBytes { String(decoding: $0, as: UTF8.self) }
    }
}

/// A `String` in HTML is text: always escaped, never markup.
extension String: HTML {
    /// Text: `& < > " '` are escaped.
    @inlinable public func render(into html: inout HTMLWriter) { html.writeEscaped(self) }
}

/// An `Int` in HTML is its decimal digits, written without a string made first.
extension Int: HTML {
    @inlinable public func render(into html: inout HTMLWriter) { html.writeDecimal(self) }
}

/// An optional renders its content, or nothing when it is `nil`.
extension Optional: HTML where Wrapped: HTML {
    @inlinable public func render(into html: inout HTMLWriter) { self?.render(into: &html) }
}

/// An array renders its elements one after another.
extension Array: HTML where Element: HTML {
    @inlinable public func render(into html: inout HTMLWriter) {
        for item in self { item.render(into: &html) }
    }
}

/// Markup written as is, unescaped. Use only for markup the program itself wrote.
public struct RawHTML: HTML, Sendable {
    /// The markup, written as is.
    public let markup: String
    /// Markup the program wrote; never text that came from input, which would go out unescaped.
    public init(_ markup: String) { self.markup = markup }
    @inlinable public func render(into html: inout HTMLWriter) { html.writeRaw(markup) }
}

/// Nothing.
public struct EmptyHTML: HTML, Sendable {
    /// Nothing to render.
    @inlinable public init() {}
    @inlinable public func render(into html: inout HTMLWriter) {}
}

/// Two contents rendered one after the other; what the builder makes of a block.
public struct HTMLPair<First: HTML, Second: HTML>: HTML {
    @usableFromInline let first: First
    @usableFromInline let second: Second
    /// `first`, then `second`.
    @inlinable public init(_ first: First, _ second: Second) {
        self.first = first
        self.second = second
    }
    @inlinable public func render(into html: inout HTMLWriter) {
        first.render(into: &html)
        second.render(into: &html)
    }
}

/// One of two contents: what the builder makes of `if`/`else` and `switch`.
public enum HTMLEither<First: HTML, Second: HTML>: HTML {
    /// The `if` branch, or an earlier `switch` case.
    case first(First)
    /// The `else` branch, or a later `switch` case.
    case second(Second)
    @inlinable public func render(into html: inout HTMLWriter) {
        switch self {
        case .first(let content): content.render(into: &html)
        case .second(let content): content.render(into: &html)
        }
    }
}

/// Content built by a closure, for passing built markup around as one value.
public struct HTMLGroup<Content: HTML>: HTML {
    @usableFromInline let content: Content
    /// The content the closure builds, built at once.
    @inlinable public init(@HTMLBuilder _ content: () -> Content) { self.content = content() }
    @inlinable public func render(into html: inout HTMLWriter) { content.render(into: &html) }
}
