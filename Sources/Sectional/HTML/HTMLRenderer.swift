/// Content rendered by a closure: for putting markup written straight
/// into the writer inside built markup. (A controller's content has its
/// own: `child.content`.)
///
/// ```swift
/// div(.class("choices")) { HTMLRenderer { html in renderChoices(into: &html) } }
/// ```
public struct HTMLRenderer: HTML {
    @usableFromInline let body: (inout HTMLWriter) -> Void

    /// Content that `body` writes straight into the writer.
    @inlinable
    public init(_ body: @escaping (inout HTMLWriter) -> Void) {
        self.body = body
    }

    @inlinable public func render(into html: inout HTMLWriter) { body(&html) }
}
