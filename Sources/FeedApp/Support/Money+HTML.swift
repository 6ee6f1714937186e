import Sectional

/// An amount in HTML is its formatted text, written without a string made first.
extension Money: HTML {
    public func render(into html: inout HTMLWriter) {
        // Digits, `$ , .` and the minus sign: nothing to escape.
        withFormattedBytes { html.writeRaw($0) }
    }
}
