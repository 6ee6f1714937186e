/// Content repeated for each element of a collection, built and rendered
/// one element at a time.
///
/// ```swift
/// ul {
///     ForEach(alerts) { alert in li { alert.title } }
/// }
/// ```
///
/// A `for` loop in a builder works too, but it builds every element's
/// content first, into an array, and copies each one on the way: for the
/// rows of a table that was about a quarter of the table's rendering.
public struct ForEach<Data: Sequence, Content: HTML>: HTML {
    /// The elements, in order.
    public let data: Data
    /// The content of one element.
    public let content: (Data.Element) -> Content

    /// The content `content` builds for each element of `data`, in order.
    @inlinable
    public init(_ data: Data, @HTMLBuilder content: @escaping (Data.Element) -> Content) {
        self.data = data
        self.content = content
    }

    @inlinable
    public func render(into html: inout HTMLWriter) {
        for element in data { content(element).render(into: &html) }
    }
}
