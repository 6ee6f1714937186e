import Foundation
import HTTPServer
import Synchronization
@testable import FeedApp

/// The application exactly as production builds it, called in-process.
struct AppHarness {
    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    /// Collects what the app logs.
    final class LogLines: Sendable {
        let lines = Mutex<[String]>([])
    }

    let router: Router
    private let log = LogLines()

    init(feedStore: any FeedStore = DemoFeedStore(), dayStore: any DayStore = DemoDayStore(), settings: PageSettings = .patient) throws {
        let log = log
        router = try buildRouter(publicDirectory: Self.publicDirectory, feedStore: feedStore, dayStore: dayStore,
                                 settings: settings, logger: Logger { line in log.lines.withLock { $0.append(line) } })
    }

    var logLines: [String] { log.lines.withLock { $0 } }

    /// Answers `target` (path and query, as on the request line) like the
    /// server would, with a streamed body collected whole.
    func get(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) async throws -> Response {
        var response = try await answer(target, method: method, headers: headers)
        if case .stream = response.body { response.body = .bytes(await response.collectBody()) }
        return response
    }

    /// The answer as the router gives it, a streamed body still unread.
    func answer(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) async throws -> Response {
        let request = try Request(method: method, target: target, headers: headers)
        if let immediate = router.respondImmediately(to: request) { return immediate }
        return await router.respond(to: request)
    }
}

extension PageSettings {
    /// Deadlines far beyond any test's loads, so a busy machine never turns
    /// a test about something else into a test of deadlines.
    static let patient = PageSettings(sectionTimeout: .seconds(30))
}

extension Response {
    /// The ids of the section cards on a page, top to bottom.
    var sectionIDs: [String] {
        bodyText.matches(of: /<section class="section" id="section-[^"]*" data-section="([^"]*)"/).map { String($0.output.1) }
    }

    /// Every `href` of links marked with `data-section-action="ACTION"`.
    func actionLinks(_ action: String) -> [String] {
        bodyText.matches(of: /<a[^>]*href="([^"]*)"[^>]*data-section-action="([a-z]+)"/)
            .filter { $0.output.2 == action }
            .map { String($0.output.1).replacingOccurrences(of: "&amp;", with: "&") }
    }
}
