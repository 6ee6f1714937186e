import Sectional
import Testing

@testable import FeedApp

/// Amounts read as a statement prints them, as text and in a page.
@Suite("Money")
struct MoneyTests {
    @Test(arguments: [
        (0, "$0.00"), (5, "$0.05"), (100, "$1.00"), (99_999, "$999.99"), (100_000, "$1,000.00"),
        (2_384_512, "$23,845.12"), (-184_233, "\u{2212}$1,842.33"), (-7, "\u{2212}$0.07"),
    ])
    func formatted(_ cents: Int, _ expected: String) {
        #expect(Money(cents: cents).formatted == expected)
        #expect(td { Money(cents: cents) }.render() == "<td>\(expected)</td>")
    }
}
