/// Comparing a page streamed in page order with the same page sent whole.
extension String {
    /// A page streamed in page order, less the placeholders it sent before
    /// the cards it waited for: the bytes of the same page sent whole.
    public var withoutStreamPlaceholders: String {
        replacing(/<div class="section-placeholder" aria-busy="true">[^<]*<\/div>/, with: "")
    }
}
