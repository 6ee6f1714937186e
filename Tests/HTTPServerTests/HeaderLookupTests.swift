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

    @Test("Compacted, fields read as before and take no more room than their bytes; the original is unchanged")
    func compactedKeepsTheFields() {
        var headers = HTTPHeaders()
        headers.reserveCapacity(16, bytes: 512)
        headers.add("Host", "127.0.0.1")
        headers.add("Cookie", "sectional_session=abc")
        headers.add("Accept", "text/event-stream")
        let compact = headers.compacted()
        #expect(compact.fields.map { "\($0.name): \($0.value)" } == headers.fields.map { "\($0.name): \($0.value)" })
        #expect(compact["cookie"] == "sectional_session=abc")
        #expect(compact.storageBytes < headers.storageBytes)
        #expect(compact.storageBytes <= 256, "three short fields: \(compact.storageBytes) bytes")
        #expect(headers.storageBytes >= 512 + 16 * 12)
    }

    @Test func settingAFieldReplacesEveryFieldOfItsNameAndKeepsTheOthersInOrder() {
        var headers: HTTPHeaders = ["A": "1"]
        headers.add("Set-Cookie", "x=1")
        headers.add("B", "2")
        headers.add("set-cookie", "y=2")
        headers["SET-COOKIE"] = "z=3"
        #expect(headers.map { "\($0.name): \($0.value)" } == ["A: 1", "B: 2", "SET-COOKIE: z=3"])
        headers["B"] = nil
        #expect(headers.fields.map(\.name) == ["A", "SET-COOKIE"])
        #expect(headers.count == 2)
    }

    @Test("Removing fields from a copy of a site's headers moves the rest down whole and leaves the original as it was")
    func removingFromACopyKeepsTheOriginal() {
        let site: HTTPHeaders = ["Content-Type": "text/html", "Cache-Control": "no-store", "X-A": "1", "cache-control": "again", "X-B": "22"]
        var answer = site
        answer.makeRoom(forFields: 2, bytes: 32)
        answer["Cache-Control"] = "private, no-cache"
        answer.add("ETag", "\"abc\"")
        answer.remove("Not-There")
        var handed: [String] = []
        answer.forEachCString { name, value in handed.append(String(cString: name) + ": " + String(cString: value)) }
        #expect(handed == ["Content-Type: text/html", "X-A: 1", "X-B: 22", "Cache-Control: private, no-cache", "ETag: \"abc\""])
        #expect(
            site.map { "\($0.name): \($0.value)" } == [
                "Content-Type: text/html", "Cache-Control: no-store", "X-A: 1", "cache-control: again", "X-B: 22",
            ])
        answer.remove("content-type")
        answer.remove("ETag")
        #expect(answer.fields.map(\.name) == ["X-A", "X-B", "Cache-Control"])
        #expect(answer["x-b"] == "22")
    }

    @Test func aValueIsLentAsItsBytesTheFirstOfItsNameFirst() {
        var headers: HTTPHeaders = ["Accept": "", "Vary": "Cookie"]
        headers.add("vary", "Accept")
        #expect(headers.withValue(of: "VARY") { String(decoding: $0, as: UTF8.self) } == "Cookie")
        #expect(headers.withValue(of: "Accept") { $0.count } == 0)
        #expect(headers.withValue(of: "Age") { $0.count } == nil)
    }

    @Test func fieldsBeyondTheRoomMadeForThemKeepEveryByte() {
        var headers = HTTPHeaders()
        headers.reserveCapacity(2, bytes: 8)
        let values = (0..<200).map { String(repeating: "v\($0 % 10)", count: $0) }
        for (index, value) in values.enumerated() { headers.add("X-\(index)", value) }
        #expect(headers.count == 200)
        for (index, value) in values.enumerated() { #expect(headers["x-\(index)"] == value) }
        var seen: [String] = []
        headers.forEachCString { name, value in seen.append(String(cString: name) + "=" + String(cString: value)) }
        #expect(seen == values.enumerated().map { "X-\($0.offset)=\($0.element)" })
    }

    /// The word-at-a-time test for control bytes in a field value finds each one
    /// at every place of values up to 40 bytes, and nothing else (a tab, DEL's
    /// neighbours, UTF-8 and the bytes just above the controls pass).
    @Test func controlBytesAreFoundAnywhereInAValue() {
        func isControl(_ byte: UInt8) -> Bool { (byte < 0x20 && byte != 0x09) || byte == 0x7F }
        for length in 1...40 {
            for position in 0..<length {
                for byte in UInt8.min...UInt8.max {
                    var value = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    value[position] = byte
                    let found = value.withUnsafeBufferPointer { RequestFraming.holdsControlByte($0) }
                    if found != isControl(byte) {
                        Issue.record("byte \(byte) at \(position) of \(length): found \(found)")
                    }
                }
            }
        }
        let mixed = Array("\tcafé ~ \u{7E} !".utf8) + [0x20, 0x80, 0xFF, 0x7E]
        #expect(!mixed.withUnsafeBufferPointer { RequestFraming.holdsControlByte($0) })
        #expect(![UInt8]().withUnsafeBufferPointer { RequestFraming.holdsControlByte($0) })
    }
}
