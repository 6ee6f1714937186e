import Sectional

/// An amount in HTML is its formatted text, written straight into the page:
/// this runs for every amount on every page.
extension Money: HTML {
    public func render(into html: inout HTMLWriter) {
        if isNegative { html.text("\u{2212}") }  // U+2212 MINUS SIGN
        html.text("$")
        html.writeDecimal(cents.magnitude / 100, groupingBy: ",")
        let fraction = Int(cents.magnitude % 100)
        html.text(".")
        if fraction < 10 { html.text("0") }
        html.writeDecimal(fraction)
    }
}
