import Sectional

/// Cents as the reference page writes them: `$2,543.10`, `-$432.99`.
///
/// Rendered straight into the page: formatted as a string, grouping the
/// digits cost more than the rest of the balances section.
struct Dollars: HTML {
    var cents: Int

    init(_ cents: Int) { self.cents = cents }

    func render(into html: inout HTMLWriter) {
        html.text(cents < 0 ? "-$" as StaticString : "$")
        html.writeDecimal(cents.magnitude / 100, groupingBy: ",")
        let fraction = Int(cents.magnitude % 100)
        html.text(fraction < 10 ? ".0" as StaticString : ".")
        html.writeDecimal(fraction)
    }
}
