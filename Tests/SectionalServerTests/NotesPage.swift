import HTTPServer
import Sectional
import SectionalServer
import SectionalTesting

/// A small app of the framework's own: a notes page of two sections, one
/// of which waits on the page's clock before it has its data.
struct NotesPage: ComposedPage {
    let name = "notes"
    let title = "Notes"
    /// Nobody's own: shared notes, open to anyone.
    let isPublic = true
    let catalog: PageCatalog<Void>

    init(clock: any Clock<Duration>, waitDelay: Duration = .zero) {
        catalog = PageCatalog(
            [
                .section(PinnedSection.self) { _ in PinnedSection() },
                .section(LatestSection.self) { _ in LatestSection(clock: clock, delay: waitDelay) },
                .section(ArchiveSection.self) { _ in ArchiveSection() },
            ],
            defaults: [PinnedSection.self, LatestSection.self]
        )
    }
}

final class PinnedSection: SectionController, CatalogSection {
    static let id: SectionID = "pinned"
    static let title = "Pinned"
    init() { super.init(id: Self.id, title: Self.title) }

    override func render(into html: inout HTMLWriter) {
        p { "Buy <milk> & bread" }.render(into: &html)
    }
}

final class LatestSection: SectionController, CatalogSection {
    static let id: SectionID = "latest"
    static let title = "Latest"
    private let clock: any Clock<Duration>
    private let delay: Duration
    private var note = ""

    init(clock: any Clock<Duration>, delay: Duration) {
        self.clock = clock
        self.delay = delay
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [clock, delay] in
            if delay > .zero { try await clock.sleep(for: delay) }
            return "Call the bank"
        }) { self.note = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        p(.class("latest")) { note }.render(into: &html)
    }
}

final class ArchiveSection: SectionController, CatalogSection {
    static let id: SectionID = "archive"
    static let title = "Archive"
    init() { super.init(id: Self.id, title: Self.title) }

    override func render(into html: inout HTMLWriter) {
        p { "Nothing archived." }.render(into: &html)
    }
}

/// The notes app: its site and router, as an app would write them.
enum NotesApp {
    static func site(language: String = "en", icon: DocumentHead.Icon? = nil, settings: PageSettings) -> Site {
        Site(
            name: "Notes",
            head: DocumentHead(language: language, stylesheets: ["/notes.css"], icon: icon),
            home: .init(path: "/notes", label: "Back to notes"),
            banner: { active in header(.class("banner")) { "Notes app, on \(active ?? "an error")" } },
            settings: settings)
    }

    static func router(
        clock: any Clock<Duration> = ContinuousClock(), waitDelay: Duration = .zero, timeout: Duration = .seconds(30),
        streaming: Bool = true, serverTiming: Bool = true, language: String = "en", logger: Logger = LogCollector().logger
    ) -> Router {
        let settings = PageSettings(sectionTimeout: timeout, streaming: streaming, clock: clock, serverTiming: serverTiming)
        let site = site(language: language, settings: settings)
        var router = Router(logger: logger)
        router.useErrorPages(of: site)
        router.addPage(NotesPage(clock: clock, waitDelay: waitDelay), in: site)
        return router
    }
}
