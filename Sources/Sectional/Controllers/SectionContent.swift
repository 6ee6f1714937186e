/// A controller's content (or its fallback, when its load failed) as a
/// piece of HTML, for placing it inside built markup:
///
/// ```swift
/// section(.class("card")) {
///     h2 { child.title }
///     child.content
/// }
/// ```
///
/// It holds the controller itself: shorter to write than an
/// `HTMLRenderer` closure around `renderContent(into:)`, and the same bytes.
public struct SectionContent: HTML {
    /// The controller whose content this is.
    public let controller: SectionController

    /// The content of `controller`.
    @inlinable public init(_ controller: SectionController) { self.controller = controller }

    @inlinable public func render(into html: inout HTMLWriter) { controller.renderContent(into: &html) }
}

extension SectionController {
    /// This controller's content, or its fallback, as HTML: `div { child.content }`.
    @inlinable public var content: SectionContent { SectionContent(self) }
}
