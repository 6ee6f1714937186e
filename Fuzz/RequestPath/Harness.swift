// Fuzzes the whole request path in-process: random method and target bytes
// through `Request(method:target:)` into the router production serves
// (`buildRouter`), half of them signed in as a demo user, so that pages
// compose and render whatever their query says. Never a crash, never a 5xx,
// every 4xx says why.
import FeedApp
import Foundation
import HTTPServer
import Synchronization

/// Lines the router logs: it logs only the errors it hides behind a 500.
let logged = Mutex<[String]>([])
let router: Router = {
    do {
        return try buildRouter(
            publicDirectory: environment("SECTIONAL_PUBLIC", "Public"), data: try AppData.memory(),
            logger: Logger { line in logged.withLock { $0.append(line) } })
    } catch {
        fatalError("cannot build the router: \(error)")
    }
}()
/// The demo user's session: signed in once, as a browser would, before any input.
let sessionCookie: String = {
    let user = SeedData.users[0]
    let form = "name=\(user.name)&password=\(user.password)"
    do {
        let request = try Request(
            method: .post, target: "/signin", headers: ["Content-Type": "application/x-www-form-urlencoded"], body: Array(form.utf8))
        let response = runBlocking { await router.respond(to: request) }
        guard response.status.code == 303, let setCookie = response.headers["Set-Cookie"], let pair = setCookie.split(separator: ";").first
        else { fatalError("signing in answered \(response.status.code)") }
        // The session must open the feed, or half the inputs would fuzz nothing but the sign-in redirect.
        let feed = try Request(method: .get, target: "/feed?stream=0", headers: ["Cookie": String(pair)])
        let page = runBlocking { await router.respond(to: feed) }
        guard page.status.code == 200 else { fatalError("the signed-in feed answered \(page.status.code)") }
        return String(pair)
    } catch {
        fatalError("cannot make the sign-in request: \(error)")
    }
}()
let methods = ["GET", "HEAD", "POST", "PUT", "DELETE", "OPTIONS", "PATCH", "get", "BREW"]
let securityHeaders = ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Cache-Control"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestPath(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = input.first else { return 0 }
    let method = HTTPMethod(rawValue: methods[Int(first & 0x7f) % methods.count])
    // As libmicrohttpd hands it over: the target up to the first NUL, as a C string.
    let target = String(decoding: input.dropFirst().prefix { $0 != 0 }, as: UTF8.self)
    var headers: HTTPHeaders = first & 0x80 != 0 ? ["If-None-Match": "*"] : [:]
    if input.count > 1 && input[input.count - 1] & 1 == 1 { headers["Cookie"] = sessionCookie }

    let request: Request
    do {
        request = try Request(method: method, target: target, headers: headers)
    } catch {
        // The server answers this itself, as plain text.
        if error.status.code != 400 || error.message.isEmpty { fuzzFailure("target refused without a 400 and a message: \(error)", input: input) }
        return 0
    }
    let (response, body) = runBlocking { () -> (Response, [UInt8]) in
        let response: Response
        if let immediate = router.respondSynchronously(to: request) {
            response = immediate
        } else {
            response = await router.respond(to: request)
        }
        // A HEAD of a streamed page sends headers only: the server never runs its producer.
        if method == .head, case .stream = response.body { return (response, []) }
        guard case .stream(let stream) = response.body else { return (response, response.bodyBytes) }
        let sink = BodyCollector()
        await stream.produce(into: ResponseBodyWriter(sink: sink))
        return (response, sink.bytes.withLock { $0 })
    }
    check(response, body: body, request: request, input: input)
    return 0
}

private func check(_ response: Response, body: [UInt8], request: Request, input: [UInt8]) {
    let status = response.status.code
    if let line = logged.withLock({ $0.first }) { fuzzFailure("the router logged an error: \(line)", input: input) }
    // 401: an API request without credentials; 403: a form posted without its token.
    guard [200, 303, 304, 400, 401, 403, 404, 405].contains(status) else {
        fuzzFailure("\(request.method) \(request.path) answered \(status)", input: input)
    }
    let contentType = response.headers["Content-Type"] ?? ""
    if contentType.hasPrefix("text/html") {
        for name in securityHeaders where response.headers[name] == nil {
            fuzzFailure("an HTML answer (\(status)) without \(name)", input: input)
        }
        if response.headers["Content-Security-Policy"]!.contains("unsafe-inline") { fuzzFailure("CSP allows inline code", input: input) }
    }
    if status == 405 && (response.headers["Allow"] ?? "").isEmpty { fuzzFailure("405 without Allow", input: input) }
    guard (400..<500).contains(status) else { return }
    let text = String(decoding: body, as: UTF8.self)
    if contentType.hasPrefix("application/json") {
        guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
            let error = object["error"] as? [String: Any], let message = error["message"] as? String, !message.isEmpty,
            error["status"] as? Int == status
        else { fuzzFailure("a JSON \(status) without its status and message: \(text.prefix(300))", input: input) }
    } else if contentType.hasPrefix("text/html") {
        // The error page: <h1>CODE Reason</h1><p>message</p>.
        guard let heading = text.range(of: "<h1>\(status) "), let paragraph = text[heading.upperBound...].range(of: "</h1><p>"),
            let end = text[paragraph.upperBound...].firstIndex(of: "<"), end > paragraph.upperBound
        else { fuzzFailure("an HTML \(status) without a heading and message: \(text.prefix(300))", input: input) }
    } else if text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
        fuzzFailure("a \(status) with an empty body", input: input)
    }
}

/// Keeps what a streamed body writes.
private final class BodyCollector: ResponseBodySink {
    let bytes = Mutex<[UInt8]>([])
    func write(_ bytes: [UInt8]) { self.bytes.withLock { $0 += bytes } }
    var isOpen: Bool { true }
}
