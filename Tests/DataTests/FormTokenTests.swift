import HTTPServer
import SectionalSecurity
import Testing

/// A form's token is good for its form, its user and its server's secret only.
@Suite("Form tokens")
struct FormTokenTests {
    let guardian = FormGuard(key: [UInt8](repeating: 7, count: 32))
    let post = Request(method: .post, path: "/feed/alerts/2/dismiss", headers: ["Sec-Fetch-Site": "same-origin"])

    private func accepts(_ guardian: FormGuard, _ token: String, action: String = "/feed/alerts/2/dismiss", subject: String = "session-a") -> Bool {
        (try? guardian.check(post, fields: [QueryItem("token", token)], action: action, subject: subject)) != nil
    }

    @Test func aTokenIsAcceptedForItsFormAndSubjectOnly() {
        let token = guardian.token(for: "/feed/alerts/2/dismiss", subject: "session-a")
        #expect(token.count == 32 && token.utf8.allSatisfy { "0123456789abcdef".utf8.contains($0) }, "128 bits, as hex")
        #expect(token == guardian.token(for: "/feed/alerts/2/dismiss", subject: "session-a"), "the same form signs the same token")
        #expect(accepts(guardian, token))
        #expect(!accepts(guardian, token, action: "/feed/alerts/3/dismiss"), "another form")
        #expect(!accepts(guardian, token, subject: "session-b"), "another user")
        #expect(!accepts(FormGuard(key: [UInt8](repeating: 8, count: 32)), token), "another secret")
    }

    @Test func hexIsTwoLowercaseDigitsEveryByteAndReadsBack() {
        let every = (0...255).map { UInt8($0) }
        let digits = Array("0123456789abcdef")
        let expected = String(every.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
        #expect(Hex.encode(every) == expected)
        #expect(Hex.decode(expected) == every)
        #expect(Hex.encode([]) == "")
        #expect(Hex.encode([0xAB]) == "ab")
    }

    @Test func aTokenChangedOrCutIsRefused() {
        let token = guardian.token(for: "/feed/alerts/2/dismiss", subject: "session-a")
        let flipped = String(token.dropLast()) + (token.last == "0" ? "1" : "0")
        for bad in [flipped, String(token.dropLast(2)), token + "00", "", "zz"] {
            #expect(!accepts(guardian, bad), "\(bad.debugDescription)")
        }
    }

    @Test(arguments: [0, 2, 9, 10, 1_234_567, -5, Int.max, Int.min])
    func anActionInPartsSignsAsItsPathDoes(_ number: Int) {
        let path = "/feed/alerts/\(number)/dismiss"
        let token = guardian.formToken(forAction: "/feed/alerts/", number, "/dismiss", subject: "session-a")
        #expect(token == guardian.formToken(for: path, subject: "session-a"))
        #expect(token.description == guardian.token(for: path, subject: "session-a"))
        #expect(accepts(guardian, token.description, action: path))
        #expect(guardian.formToken(forAction: "", number, "", subject: "s") == guardian.formToken(for: String(number), subject: "s"))
        let hex = token.withHex { hex in
            var digits: [UInt8] = []
            for index in hex.indices { digits.append(hex[index]) }
            return String(decoding: digits, as: UTF8.self)
        }
        #expect(hex == token.description)
    }

    @Test("Where the parts of a message end is part of it: moving a byte between subject and action changes the token")
    func partsAreSeparated() {
        #expect(guardian.token(for: "/b", subject: "a") != guardian.token(for: "b", subject: "a/"))
        #expect(guardian.token(for: "", subject: "x") != guardian.token(for: "x", subject: ""))
    }
}
