import Testing

@testable import HTTPServer

/// Header names are found whatever their case, and only their letters may differ in case.
@Suite("Header lookup")
struct HeaderLookupTests {
    @Test func namesMatchWhateverTheCaseOfTheirLetters() {
        let headers: HTTPHeaders = ["content-TYPE": "text/plain", "X-Request-Id": "7", "Cookie": "a=b"]
        #expect(headers["Content-Type"] == "text/plain")
        #expect(headers["x-request-id"] == "7")
        #expect(headers["COOKIE"] == "a=b")
        #expect(headers["Cookies"] == nil)
        #expect(headers["Cooki"] == nil)
    }

    @Test("Bytes that differ by 0x20 but are not letters are different names")
    func onlyLettersFoldCase() {
        // @ and `, [ and {, ^ and ~ differ in the bit that makes letters lower case.
        for (sent, asked) in [("X-@", "X-`"), ("A[", "a{"), ("x^", "X~"), ("é", "É"), ("-", "\r")] {
            let headers: HTTPHeaders = [sent: "v"]
            #expect(headers[asked] == nil, "\(sent) is not \(asked)")
            #expect(headers[sent] == "v")
        }
    }
}
