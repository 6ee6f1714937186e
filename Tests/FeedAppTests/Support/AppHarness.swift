import FeedAppTestSupport
import Foundation
import HTTPServer
import Sectional
import SectionalTesting
import Testing

@testable import FeedApp

/// The application exactly as production builds it, called in process
/// through the testing library's client.
struct AppHarness {
    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public").path

    let router: Router
    let client: InProcessClient
    /// The `Cookie` field of a session of the first demo user, sent with every request.
    let cookie: String
    private let log = LogCollector()

    /// The app on `data` (the seed data in a database in memory unless
    /// given), its feed read from `feedStore` when given, with a signed-in session.
    init(
        data: AppData? = nil, feedStore: (any FeedStore)? = nil, settings: AppSettings = .patient,
        clock: any Clock<Duration> = ContinuousClock()
    ) async throws {
        let seeded = try data ?? .memory()
        let data = feedStore.map { seeded.replacingFeed(with: $0) } ?? seeded
        router = try buildRouter(publicDirectory: Self.publicDirectory, data: data, settings: settings, clock: clock, logger: log.logger)
        client = InProcessClient(router)
        cookie = try await client.signIn()
    }

    var logLines: [String] { log.lines }

    /// Answers `target` (path and query, as on the request line) like the
    /// server would, with a streamed body read whole, signed in.
    func get(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = [:]) async throws -> TestResponse {
        var headers = headers
        if headers["Cookie"] == nil { headers.add("Cookie", cookie) }
        return try await client.execute(method, target, headers: headers)
    }

    /// The answer as the router gives it, a streamed body still unread.
    func answer(_ target: String, method: HTTPMethod = .get) async throws -> Response {
        try await client.answer(method, target, headers: ["Cookie": cookie])
    }
}

extension AppData {
    /// The same data with the feed read from `store`.
    func replacingFeed(with store: any FeedStore) -> AppData {
        AppData(feed: store, day: day, layouts: layouts, accounts: accounts, users: users, formKey: formKey, pool: pool, hasher: hasher)
    }
}

extension AppSettings {
    /// Deadlines far beyond any test's loads, so a busy machine never turns
    /// a test about something else into a test of deadlines.
    static let patient = AppSettings(sectionTimeout: .seconds(30))
}

extension TestResponse {
    /// The ids of the section cards on a page, top to bottom.
    var sectionIDs: [SectionID] {
        bodyText.matches(of: /<section class="section" id="section-[^"]*" data-section="([^"]*)"/).map { SectionID($0.output.1) }
    }

    /// Every `href` of links marked with `data-section-action="ACTION"`.
    func actionLinks(_ action: String) -> [String] {
        bodyText.matches(of: /<a[^>]*href="([^"]*)"[^>]*data-section-action="([a-z]+)"/)
            .filter { $0.output.2 == action }
            .map { String($0.output.1).replacingOccurrences(of: "&amp;", with: "&") }
    }
}
