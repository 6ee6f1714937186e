import HTTPServer
import Sectional
import SectionalServer

/// The reference app: its site and its routes. `reference-server` serves
/// exactly this router, and the tests call it.
public enum ReferenceApp {
    /// The site: the document the spec asks for, no banner, no script, pages sent
    /// whole, with the spec's headers (no `Server-Timing`).
    public static let site = Site(
        name: "Reference",
        head: DocumentHead(language: "en", stylesheets: ["/styles.css"]),
        home: .init(path: "/feed", label: "Back to the feed"),
        documentTitle: { $0 },
        settings: PageSettings(streaming: false, serverTiming: false)
    ).asTheSpecAsks()

    public static func router(store: any ReferenceStore, logger: Logger = .standardError) -> Router {
        var router = Router(logger: logger)
        router.useErrorPages(of: site)
        router.getSynchronously("/healthz") { _ in "ok" }
        router.addPage(ReferenceFeedPage(store: store), in: site)
        return router
    }
}

extension Site {
    /// The spec's document links no canonical address and no script.
    fileprivate func asTheSpecAsks() -> Site {
        var site = self
        site.linksCanonicalURL = false
        site.linksPageScript = false
        return site
    }
}
