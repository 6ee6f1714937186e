import HTTPServer
import Sectional
import SectionalServer

/// The reference app: its site and its routes. `reference-server` serves
/// exactly this router, and the tests call it.
public enum ReferenceApp {
    /// The site: the document the spec asks for, no banner, pages sent
    /// whole, with the spec's headers (no `Server-Timing`).
    public static let site = Site(
        name: "Reference",
        head: DocumentHead(language: "en", stylesheets: ["/styles.css"]),
        home: .init(path: "/feed", label: "Back to the feed"),
        documentTitle: { $0 },
        settings: PageSettings(streaming: false, serverTiming: false)
    ).withoutCanonicalLinks()

    public static func router(store: any ReferenceStore, logger: Logger = .standardError) -> Router {
        var router = Router(logger: logger)
        router.useErrorPages(of: site)
        router.getSynchronously("/healthz") { _ in "ok" }
        router.addPage(ReferenceFeedPage(store: store), in: site)
        return router
    }
}

extension Site {
    fileprivate func withoutCanonicalLinks() -> Site {
        var site = self
        site.linksCanonicalURL = false
        return site
    }
}
