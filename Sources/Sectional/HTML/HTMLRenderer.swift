/// Content rendered by a closure: for putting what a controller renders
/// inside built markup.
///
/// ```swift
/// div(.class("body")) { HTMLRenderer { html in child.renderContent(into: &html) } }
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
