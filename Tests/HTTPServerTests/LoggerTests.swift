import Foundation
import HTTPServer
import SectionalTesting
import Testing

@Suite("Log lines: a time, a level, a message, as text or JSON")
struct LoggerTests {
    @Test("Lines below the logger's level are dropped, their message never made")
    func levels() {
        let log = LogCollector(level: .warning)
        var made = 0
        func message(_ text: String) -> String {
            made += 1
            return text
        }
        log.logger.debug(message("a note"))
        log.logger.info(message("listening"))
        log.logger.warning(message("a section fell back"))
        log.logger.error(message("a request failed"))
        #expect(made == 2, "the dropped lines' messages were made")
        #expect(log.lines.count == 2)
        #expect(log.lines[0].hasSuffix(" warning a section fell back"))
        #expect(log.lines[1].hasSuffix(" error a request failed"))
    }

    @Test("A text line is the UTC time to the millisecond, the level and the message")
    func textLine() throws {
        let log = LogCollector()
        log.logger.info("listening on http://127.0.0.1:8080/feed")
        let line = try #require(log.lines.first)
        #expect(line.wholeMatch(of: #/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z info listening on http://127\.0\.0\.1:8080/feed/#) != nil, "\(line)")
    }

    @Test("A JSON line is one object with the time, the level and the message, escaped")
    func jsonLine() throws {
        let lines = LogCollector()
        let logger = lines.logger.with(level: .info, format: .json)
        logger.warning("section \"alerts\" failed:\n\tdown")
        let line = try #require(lines.lines.first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(object["level"] == "warning")
        #expect(object["message"] == "section \"alerts\" failed:\n\tdown")
        #expect(object["time"]?.hasSuffix("Z") == true)
        #expect(!line.contains("\n"), "one line")
    }

    @Test("A whole record of its own is written as it is")
    func rawLine() {
        let log = LogCollector()
        log.logger.write(#"{"method":"GET"}"#)
        #expect(log.lines == [#"{"method":"GET"}"#])
    }

    @Test("A level is named as the flag names it; anything else is none", arguments: ["debug", "info", "warning", "error"])
    func levelNames(name: String) {
        #expect(Logger.Level(name)?.description == name)
        #expect(Logger.Level(name.uppercased()) == nil)
    }

    @Test("Every line logged while a request is answered names it, as its access-log line does; a proxy's sane X-Request-ID is kept")
    func requestIDs() async throws {
        let log = LogCollector()
        let logger = log.logger.with(level: .info, format: .json)
        var router = Router(logger: logger)
        router.get("/work") { request in
            logger.warning("working on \(request.path)")
            await Task.yield()
            logger.info("still working, as \(request.id)")
            return Response(contentType: "text/plain", body: "done")
        }
        var configuration = ServerConfiguration.forTests()
        configuration.accessLog = true
        try await withLiveServer(router, configuration: configuration, logger: logger) { server in
            let client = LiveClient(port: server.port)
            for proposed in [nil, "edge-7f3a.91_b", "has spaces", "tab\there", String(repeating: "a", count: 65)] {
                _ = try await client.get("/work", headers: proposed.map { ["X-Request-ID": $0] } ?? [:])
            }
        }
        let objects = log.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let access = objects.filter { $0["path"] as? String == "/work" }
        #expect(access.count == 5)
        var ids: [String] = []
        for line in access {
            let id = try #require(line["request"] as? String)
            let own = objects.filter { $0["request"] as? String == id && $0["message"] != nil }.compactMap { $0["message"] as? String }
            #expect(own == ["working on /work", "still working, as \(id)"], "the lines of request \(id)")
            ids.append(id)
        }
        #expect(ids[1] == "edge-7f3a.91_b", "the proxy's id")
        #expect(Set(ids).count == 5, "each request its own")
        for id in ids where id != ids[1] { #expect(id.wholeMatch(of: /[0-9a-f]{6}-\d+/) != nil, "a made id, not the client's: \(id)") }
        #expect(Logger.requestID == nil, "outside a request, no id")
    }
}
