/// A controller that loads its own data and renders one HTML fragment: the
/// server's counterpart of a child view controller.
///
/// Subclass it, give it an id and a title, load in `makeLoad()` and render in
/// `render(into:)`:
///
/// ```swift
/// final class GreetingSection: SectionController {
///     private var name = ""
///     init() { super.init(id: "greeting", title: "Greeting") }
///     override func makeLoad() -> SectionLoad? {
///         SectionLoad({ try await Directory.currentUserName() }) { self.name = $0 }
///     }
///     override func render(into html: inout HTMLWriter) {
///         p { "Hello, \(name)!" }.render(into: &html)
///     }
/// }
/// ```
///
/// Controllers form a tree (`addChild(_:)`, `removeFromParent()`) made per
/// request; children refer to their parent weakly, so releasing the root
/// frees the whole tree.
open class SectionController {
    // The tree's stored properties are not checked for overlapping access
    // at run time (`@exclusivity(unchecked)`): a tree lives in one task (a
    // controller is not `Sendable`), and no access here is held across a
    // call that could reach the same property. The check cost ~60
    // instructions an access, and a page makes about a hundred.

    /// Stable, URL-safe identity, e.g. `credit-score`.
    public let id: SectionID
    /// The name shown in the card's heading and in add and remove links.
    @exclusivity(unchecked) open var title: String
    /// The container this controller is a child of; `nil` once that is freed.
    // Weak in effect, not in kind: a parent clears its children's reference
    // as it is freed (`deinit`), so it never dangles. A `weak` one gave each
    // parent a side table (an allocation) and made every read a runtime
    // call: 2,700 instructions a page of five controllers, 600 a fragment.
    @exclusivity(unchecked) public internal(set) unowned(unsafe) var parent: SectionController?
    /// The children in order.
    @exclusivity(unchecked) public internal(set) var children: [SectionController] = []
    /// Whether the data load has run, and how it ended.
    @exclusivity(unchecked) public internal(set) var loadState = LoadState.notLoaded
    /// The version of the live data this section shows (`liveKeys`), read
    /// before its page loaded; `nil` when it is not live or no live hub is
    /// set (`StackPageController.recordLiveVersions(from:)`).
    @exclusivity(unchecked) public internal(set) var liveVersion: Int?

    /// A controller with no parent, no children, and its load still to run.
    public init(id: SectionID, title: String) {
        self.id = id
        self.title = title
    }

    deinit {
        // `addChild(_:)` and `removeFromParent()`, the only ways `children`
        // changes, keep every child's parent this controller. (A subclass's
        // `deinit` runs first, with its children still pointing here: it must
        // not hand them `self`.)
        for child in children { child.parent = nil }
    }

    // MARK: Containment callbacks

    /// Called before the controller joins `parent`, or leaves its parent when `nil`.
    open func willMove(toParent parent: SectionController?) {}

    /// Called after the controller joined `parent`, or left its parent when `nil`.
    open func didMove(toParent parent: SectionController?) {}

    // MARK: Data and rendering

    /// The controller's data load, run once before rendering (the analogue of
    /// `viewDidLoad`); `nil` when there is nothing to load.
    open func makeLoad() -> SectionLoad? { nil }

    /// How long the load may take before the fallback shows; `nil` takes the page's default.
    open var loadTimeout: Duration? { nil }

    /// The data this section shows, as keys a write records when it
    /// changes it (`.alerts(of: user)`): an open page then gets the section
    /// re-rendered. None by default: the section is never live.
    open var liveKeys: Set<LiveKey> { [] }

    /// How a change swapped into an open page is told to screen readers:
    /// politely by default; `assertive` for what needs attention now; `off`
    /// for what changes too often to be read out (a ticker).
    open var liveAnnouncement: LiveAnnouncement { .polite }

    /// What the section's output depends on besides the data of its
    /// `liveKeys`: the user, a query value it reads, a form token's subject,
    /// written into one string. With a key, and a `SectionCache` on the
    /// page, the rendered content is kept under the key and the versions of
    /// the live keys, and served without loading while those are unchanged.
    /// `nil` (the default): always loaded and rendered.
    ///
    /// Everything the content shows must come from the key or from data a
    /// live key covers: what is left out is served stale.
    open var cacheKey: String? { nil }

    /// One `cacheKey` from several parts, each kept apart by its length: no
    /// two lists of parts give the same key, whatever the parts hold.
    public static func cacheKey(_ parts: String...) -> String { cacheKey(parts) }

    /// One `cacheKey` from a list of parts, each kept apart by its length.
    public static func cacheKey(_ parts: [String]) -> String { KeyText.lengthPrefixed(parts) }

    /// Where the rendered content is to be kept, and the live keys it was looked up under: set by the page before loading, on a miss.
    @exclusivity(unchecked) var cacheEntry: (cache: SectionCache, key: String, keys: Set<LiveKey>)?
    /// The content found in the cache: the section is not loaded, its content not rendered.
    @exclusivity(unchecked) var cachedContent: [UInt8]?

    /// Whether the content was found in the page's `SectionCache`: no load ran.
    public var isFromCache: Bool { cachedContent != nil }

    /// The entry the content is to be kept under, when it was looked up in a
    /// cache and not found: what renders of the same card share.
    public var cacheEntryKey: String? { cacheEntry?.key }

    /// The entry the section was looked up under in a cache, found or not.
    public private(set) var cacheLookupKey: String?

    /// Renders the fragment from the loaded data. The default renders the
    /// children one after another.
    open func render(into html: inout HTMLWriter) {
        for child in children { child.renderContent(into: &html) }
    }

    /// Rendered in place of the content when the load failed: the title and
    /// a short notice.
    open func renderFallback(into html: inout HTMLWriter) {
        div(.class("section-fallback"), .role("status")) {
            p { "\(title) could not be loaded right now." }
        }.render(into: &html)
    }

    /// What went wrong with the load, when the page diagnoses failures
    /// (`LoadOptions.diagnosesFailures`, in development): shown below the fallback.
    public internal(set) var failureDiagnosis: String?

    /// The content, or the fallback when the load failed.
    public final func renderContent(into html: inout HTMLWriter) {
        if case .failed = loadState {
            renderFallback(into: &html)
            if let failureDiagnosis { p(.class("section-diagnosis")) { failureDiagnosis }.render(into: &html) }
        } else if let cachedContent {
            html.writeRendered(cachedContent)
        } else if let cacheEntry {
            let start = html.count
            render(into: &html)
            // Kept only as looked up: with the same live keys, and nothing inside it fell back.
            if cacheEntry.cache.couldKeep(html.count - start, under: cacheEntry.key), liveKeys == cacheEntry.keys, !hasFailedDescendant {
                cacheEntry.cache.store(html.bytes(in: start..<html.count), for: cacheEntry.key)
            }
        } else {
            render(into: &html)
        }
    }

    /// Looks the section up in `cache` under `key`: found, it and its
    /// descendants count as loaded; missed, its content is kept once rendered.
    func useCache(_ cache: SectionCache, key: String, keys: Set<LiveKey>) {
        cacheLookupKey = key
        if let content = cache.content(for: key) {
            cachedContent = content
            markLoaded()
        } else {
            cacheEntry = (cache, key, keys)
        }
    }

    /// Whether the content is what its cache key and live versions make it:
    /// found in the cache, or loaded, with nothing inside fallen back, to be
    /// kept there under the live keys it was looked up with. Only such cards
    /// make an answer a `StampedMemo` may confirm later.
    public var isVersioned: Bool {
        if cachedContent != nil { return true }
        guard let cacheEntry, case .loaded = loadState else { return false }
        return liveKeys == cacheEntry.keys && !hasFailedDescendant
    }

    /// Whether a child, or one of its children, failed to load and shows its fallback.
    private var hasFailedDescendant: Bool {
        children.contains { child in
            if case .failed = child.loadState { return true }
            return child.hasFailedDescendant
        }
    }

    private func markLoaded() {
        loadState = .loaded
        for child in children { child.markLoaded() }
    }

    /// Marks this controller and its descendants to load again, e.g. for a new date.
    public func setNeedsLoad() {
        loadState = .notLoaded
        failureDiagnosis = nil
        cachedContent = nil
        cacheEntry = nil
        cacheLookupKey = nil
        for child in children { child.setNeedsLoad() }
    }

    /// The descendant (or self) with this id.
    public func descendant(withID id: SectionID) -> SectionController? {
        if self.id == id { return self }
        for child in children {
            if let found = child.descendant(withID: id) { return found }
        }
        return nil
    }
}
