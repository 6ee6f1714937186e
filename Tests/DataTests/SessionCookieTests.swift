import HTTPServer
import SectionalSecurity
import Testing

/// The session cookie is found by its exact name among the others a browser sends.
@Suite("Session cookie")
struct SessionCookieTests {
    private func value(_ field: String?, name: String = "sectional_session") -> String? {
        let request = Request(method: .get, path: "/", headers: field.map { ["Cookie": $0] } ?? [:])
        // What is lent in place is what the tests below expect; `value(in:)` is the same as a string.
        let lent = SessionCookie(name: name).withValue(in: request) { String(decoding: $0, as: UTF8.self) }
        #expect(SessionCookie(name: name).value(in: request) == lent, "\(field ?? "no field")")
        return lent
    }

    @Test func foundAmongOtherCookies() {
        #expect(value("sectional_session=abc") == "abc")
        #expect(value("theme=dark; sectional_session=abc; lang=en") == "abc")
        #expect(value("theme=dark;sectional_session=abc") == "abc")
        #expect(value("sectional_session=") == "")
    }

    @Test("A name that only begins or ends like it, or none at all, is not it")
    func onlyTheExactName() {
        #expect(value(nil) == nil)
        #expect(value("") == nil)
        #expect(value("xsectional_session=abc") == nil)
        #expect(value("sectional_sessions=abc") == nil)
        #expect(value("sectional_sessio=abc") == nil)
        #expect(value("sectional_session") == nil)
        #expect(value("Sectional_Session=abc") == nil, "cookie names are case-sensitive")
        #expect(value("other=sectional_session=abc") == nil)
    }
}
