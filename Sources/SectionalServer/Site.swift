import HTTPServer
import Sectional

/// What every page of an app shares: its name, its document head, the
/// banner above each page, where error pages lead back to, the headers of
/// its HTML answers, and how pages load and send their sections.
///
/// ```swift
/// let site = Site(name: "Sectional", head: DocumentHead(language: "en", stylesheets: ["/styles.css"]),
///                 home: .init(path: "/feed", label: "Back to the feed"),
///                 banner: { active in SiteHeader(active: active) })
/// var router = Router(staticFiles: files)
/// site.signIn = AppSignIn(store: store)
/// router.useErrorPages(of: site)
/// router.addPage(FeedPage(store: store), in: site)
/// ```
public struct Site: Sendable {
    /// A link back to the app's main page, on error pages.
    public struct HomeLink: Sendable {
        /// Where the link leads, e.g. `/feed`.
        public var path: String
        /// The link's text, e.g. `Back to the feed`.
        public var label: String

        /// A link to `path` reading `label`.
        public init(path: String, label: String) {
            self.path = path
            self.label = label
        }
    }

    /// Ends every document's title: `Feed · Sectional`.
    public var name: String
    /// A page's document title from its own title; by default `TITLE · NAME`.
    public var documentTitle: @Sendable (_ pageTitle: String) -> String
    /// Whether pages link their canonical address (`rel=canonical`), which
    /// names their composition so every spelling of a query maps to one URL.
    public var linksCanonicalURL = true
    /// Whether pages link the framework's page script (in-place add and
    /// remove, forms that refresh their card, live cards). A site whose
    /// pages need none of it may leave it out: they work without it.
    public var linksPageScript = true
    /// What every document's head carries.
    public var head: DocumentHead
    /// Where error pages lead back to.
    public var home: HomeLink
    /// Rendered above each page (`activePage` is the page's name) and each error page (`nil`).
    public var banner: @Sendable (_ activePage: String?) -> any HTML
    /// Headers of every HTML answer.
    public var htmlHeaders: HTTPHeaders
    /// How pages load and send their sections.
    public var settings: PageSettings
    /// Where live sections are watched: with a hub, each page also serves
    /// `/NAME/live`, the event stream of its live sections. None by default.
    public var live: LiveHub?
    /// Where sections with a `cacheKey` are kept rendered between requests,
    /// keyed by the versions of their live keys (`live`). None by default.
    public var sectionCache: SectionCache?
    /// One-time messages a page shows above its sections, by the name a
    /// form's 303 gives as `?notice=NAME` (`"layout-saved": "Your layout is
    /// saved."`). A name the site does not know shows nothing, so a link
    /// cannot put words in a page; the page's own links drop it, so it shows once.
    public var notices: [String: String] = [:]
    /// Who is asking: pages that are not public are served only to someone
    /// it recognises. None by default, and then only public pages can be
    /// added.
    public var signIn: (any SignIn)?

    /// A site; only its name, head and home link must be given.
    ///
    /// - Parameters:
    ///   - name: ends every document's title.
    ///   - head: what every document's head carries.
    ///   - home: where error pages lead back to.
    ///   - documentTitle: a page's document title from its own; `nil` for `TITLE · NAME`.
    ///   - banner: rendered above each page and error page; nothing by default.
    ///   - htmlHeaders: the headers of every HTML answer.
    ///   - settings: how pages load and send their sections.
    public init(
        name: String, head: DocumentHead, home: HomeLink, documentTitle: (@Sendable (_ pageTitle: String) -> String)? = nil,
        banner: @escaping @Sendable (_ activePage: String?) -> any HTML = { _ in EmptyHTML() },
        htmlHeaders: HTTPHeaders = Site.privateHTMLHeaders, settings: PageSettings = PageSettings()
    ) {
        self.name = name
        self.documentTitle = documentTitle ?? { pageTitle in pageTitle + " · " + name }
        self.head = head
        self.home = home
        self.banner = banner
        self.htmlHeaders = htmlHeaders
        self.settings = settings
    }

    /// Personal pages stay out of shared caches, the page may run only its
    /// own script and be framed by nobody.
    public static let privateHTMLHeaders: HTTPHeaders = [
        "Content-Type": "text/html; charset=utf-8",
        "Cache-Control": "private, no-store",
        "Content-Security-Policy":
            "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
        // For browsers that predate `frame-ancestors`.
        "X-Frame-Options": "DENY",
        "X-Content-Type-Options": "nosniff",
        "Referrer-Policy": "same-origin",
    ]

    /// A rendered page or fragment; the writer's memory becomes the body, not copied.
    public func html(_ html: consuming HTMLWriter, status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: htmlHeaders, body: .buffer(ResponseBuffer(taking: html.takeBuffer())))
    }
}
