import HTTPServer
import Testing

/// Parsing the request target: the percent-decoded path and the query items
/// handlers read. Malformed encoding is the client's fault: a 400.
@Suite struct RequestTargetTests {
    @Test func repeatedNamesAreKeptInOrder() throws {
        let request = try Request(method: .get, target: "/feed?sections=alerts&remove=x&sections=balances&sections=checkup")
        #expect(request.queryValues("sections") == ["alerts", "balances", "checkup"])
        #expect(request.queryValue("sections") == "alerts")
        #expect(
            request.query == [
                QueryItem("sections", "alerts"), QueryItem("remove", "x"),
                QueryItem("sections", "balances"), QueryItem("sections", "checkup"),
            ])
    }

    @Test func emptyPairsAreSkippedAndANameAloneHasAnEmptyValue() throws {
        // Raw characters of several bytes stay whole: the query is split on its `&` and `=` bytes.
        let request = try Request(method: .get, target: "/search?&q=café&&flag&é=ü=1&")
        #expect(request.query == [QueryItem("q", "café"), QueryItem("flag", ""), QueryItem("é", "ü=1")])
    }

    @Test(arguments: [
        ("q=hello+world", "q", "hello world"),
        ("q=a%2Bb", "q", "a+b"),
        ("q=%3D%26%3F", "q", "=&?"),
        ("q=1=2", "q", "1=2"),
        ("q=J%C3%BCrgen", "q", "Jürgen"),
        ("q=caf%c3%a9", "q", "café"),
        ("first+name=Ada", "first name", "Ada"),
        ("q=", "q", ""),
    ])
    func valuesAreDecoded(query: String, name: String, value: String) throws {
        let request = try Request(method: .get, target: "/search?" + query)
        #expect(request.queryValue(name) == value)
    }

    @Test func nameWithoutEqualsSignIsPresentWithAnEmptyValue() throws {
        let request = try Request(method: .get, target: "/api/feed/sections?pretty&sections=alerts")
        #expect(request.hasQueryItem("pretty"))
        #expect(request.queryValue("pretty") == "")
        #expect(request.queryValue("sections") == "alerts")
        #expect(!request.hasQueryItem("absent"))
        #expect(request.queryValue("absent") == nil)
    }

    @Test func emptyPairsAreSkipped() throws {
        let request = try Request(method: .get, target: "/feed?&a=1&&b=2&")
        #expect(request.query == [QueryItem("a", "1"), QueryItem("b", "2")])
    }

    @Test(arguments: [
        ("/feed", "/feed"),
        ("/feed?", "/feed"),
        ("/a+b", "/a+b"),
        ("/a%20b", "/a b"),
        ("/caf%C3%A9", "/café"),
        ("/%2e%2e/secret", "/../secret"),
        ("/a%2Fb", "/a/b"),
    ])
    func pathIsDecodedButPlusStaysPlus(target: String, path: String) throws {
        #expect(try Request(method: .get, target: target).path == path)
    }

    @Test(arguments: [
        "/search?q=%zz",
        "/search?q=%4",
        "/search?q=%",
        "/search?q=abc%",
        "/search?q=%ff",
        "/search?q=%C3",
        "/search?q=%C3%28",
        "/search?q=%ED%A0%80",
        "/search?%zz=1",
        "/search?ok=1&bad=%g0",
        "/%zz/file",
        "/%4",
        "/caf%E9",
        "feed",
        "*",
    ])
    func malformedTargetsAreBadRequests(target: String) throws {
        let error = #expect(throws: HTTPError.self) {
            try Request(method: .get, target: target)
        }
        #expect(error?.status == .badRequest)
        #expect(error?.message.isEmpty == false)
    }
}
