import Testing

@testable import HTTPServer

/// `Server-Timing` reads as milliseconds with three decimals, whatever the size of the duration.
@Suite("Server-Timing")
struct ServerTimingTests {
    @Test(arguments: [
        (Duration.zero, "0.000"), (.microseconds(42), "0.042"), (.milliseconds(1), "1.000"), (.microseconds(2_500), "2.500"),
        (.microseconds(12_345_678), "12345.678"), (.seconds(-1), "0.000"), (.nanoseconds(999), "0.000"),
        (.milliseconds(10), "10.000"), (.microseconds(100_001), "100.001"), (.seconds(86_400), "86400000.000"),
    ])
    func millisecondsWithThreeDecimals(_ duration: Duration, _ expected: String) {
        var timing = ServerTiming()
        timing.add("load-balances", duration)
        timing.add("render-x", .microseconds(7))
        #expect(timing.headerValue == "load-balances;dur=\(expected), render-x;dur=0.007")
    }

    @Test("No entries, no value; many entries, each in order")
    func emptyAndMany() {
        #expect(ServerTiming().headerValue == "")
        var timing = ServerTiming()
        for index in 0..<12 { timing.add("step-\(index)", .microseconds(index)) }
        let expected = (0..<12).map { "step-\($0);dur=0.\($0 < 10 ? "00" : "0")\($0)" }.joined(separator: ", ")
        #expect(timing.headerValue == expected)
    }

    @Test func namesOfAnyLengthAreCopiedWhole() {
        var timing = ServerTiming()
        let long = String(repeating: "render-credit-score-", count: 5)
        timing.add(long, .milliseconds(3))
        timing.add("a", .microseconds(1_000_001))
        #expect(timing.headerValue == long + ";dur=3.000, a;dur=1000.001")
    }

    @Test("A name added in two parts reads as one, in the header and in the entries")
    func prefixedNamesReadWhole() {
        var timing = ServerTiming()
        #expect(timing.isEmpty)
        timing.add(prefix: "load-", "credit-score", .microseconds(1_250))
        timing.add(prefix: "", "plain", .zero)
        timing.add("render-x", .microseconds(7))
        #expect(!timing.isEmpty)
        #expect(timing.headerValue == "load-credit-score;dur=1.250, plain;dur=0.000, render-x;dur=0.007")
        #expect(timing.entries.map(\.name) == ["load-credit-score", "plain", "render-x"])
        #expect(timing.entries.map(\.duration) == [.microseconds(1_250), .zero, .microseconds(7)])
    }

    @Test("What libmicrohttpd is handed is the header value, as one C string")
    func cStringIsTheHeaderValue() {
        var timings = [ServerTiming()]
        var many = ServerTiming()
        for index in 0..<40 { many.add(prefix: "render-", String(repeating: "x", count: index), .microseconds(index * 1_001)) }
        timings.append(many)
        var odd = ServerTiming()
        odd.add("a", .seconds(-5))
        odd.add(prefix: "load-", "", .seconds(86_400 * 365))
        timings.append(odd)
        var known = ServerTiming()
        known.add(prefix: "load-", "credit-score", .microseconds(1_250))
        known.add("render-x", .microseconds(7))
        #expect(known.withHeaderValueCString { String(cString: $0) } == "load-credit-score;dur=1.250, render-x;dur=0.007")
        for timing in timings {
            let handed = timing.withHeaderValueCString { String(cString: $0) }
            #expect(handed == timing.headerValue)
        }
    }
}
