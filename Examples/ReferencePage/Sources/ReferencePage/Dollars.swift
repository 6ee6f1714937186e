import Sectional

/// Cents as the reference page writes them: `$2,543.10`, `-$432.99`.
///
/// Rendered straight into the page: formatted as a string, grouping the
/// digits cost more than the rest of the balances section.
struct Dollars: HTML {
    var cents: Int

    init(_ cents: Int) { self.cents = cents }

    func render(into html: inout HTMLWriter) {
        // Written right to left into a small buffer on the stack: cents, point, grouped dollars, sign.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 40) { buffer in
            var start = buffer.count
            func prepend(_ byte: UInt8) {
                start -= 1
                buffer[start] = byte
            }
            var rest = cents.magnitude
            for _ in 0..<2 {
                prepend(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
            }
            prepend(UInt8(ascii: "."))
            var digits = 0
            repeat {
                if digits > 0 && digits % 3 == 0 { prepend(UInt8(ascii: ",")) }
                prepend(UInt8(ascii: "0") + UInt8(rest % 10))
                rest /= 10
                digits += 1
            } while rest > 0
            prepend(UInt8(ascii: "$"))
            if cents < 0 { prepend(UInt8(ascii: "-")) }
            // Digits, `$ , . -`: nothing to escape.
            html.writeRaw(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }
}
