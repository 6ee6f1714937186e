/// A page that stacks its children top to bottom, each in a card carrying
/// its id (the server's `UIStackView` of child view controllers).
///
/// With a `plan` and an `address`, each card links to the page without it
/// and the page offers links to add every absent section, so a person never
/// types a query string.
open class StackPageController: SectionController {
    // Unchecked at run time, as `SectionController`'s tree is (it says why).
    /// The composition shown, for remove and add links.
    @exclusivity(unchecked) public var plan: CompositionPlan?
    /// Where the page lives, for remove and add links.
    @exclusivity(unchecked) public var address: PageAddress?
    /// Shown when the page has no section.
    public var emptyStateMessage = "No sections are shown. Add one below."
    /// The page's one `<h1>`, first in the stack, when set.
    @exclusivity(unchecked) public var heading: String?
    /// Where the cards go: in page order, or into slots they fill as they arrive.
    @exclusivity(unchecked) public var layout = StackLayout.pageOrder
    /// Where live sections' versions are read: set, with
    /// `recordLiveVersions(from:)`, by the server that has the live hub.
    /// Each live card then carries the version of its data as rendered
    /// (`data-live="3"`), so that the page's event stream starts from it and
    /// misses no change made after the render.
    @exclusivity(unchecked) public private(set) var liveVersions: (any LiveVersionSource)?

    /// Set by a streaming `PageDocument`: cards whose sections are still
    /// loading are left as gaps, to be rendered when they finish.
    @exclusivity(unchecked) var leavesGapsForUnfinishedCards = false
    @exclusivity(unchecked) private var gaps: [CardGap] = []
    /// Where the last card ended in that render: the stack's tail follows.
    @exclusivity(unchecked) private var cardsEnd = 0
    /// Set for pages sent whole: each card's render time goes to `cardRenderTimes`.
    @exclusivity(unchecked) var timesCards = false
    /// How long each card took to render, in page order, when timed.
    @exclusivity(unchecked) public private(set) var cardRenderTimes: [(id: SectionID, duration: Duration)] = []

    /// The stack's opening, its cards in page order, and its closing. A
    /// subclass changes the markup around the cards by overriding
    /// `renderOpening`, `renderCard` and `renderClosing`; which cards are
    /// rendered when is this method's, so streaming keeps working.
    override public final func render(into html: inout HTMLWriter) {
        renderOpening(into: &html)
        if case .slots(let stylesheets) = layout { renderSlots(stylesheets: stylesheets, into: &html) }
        for child in children {
            if leavesGapsForUnfinishedCards && !child.isLoadFinished {
                gaps.append(CardGap(offset: html.count, section: child))
            } else {
                renderCard(child, into: &html)
            }
        }
        cardsEnd = html.count
        renderClosing(into: &html)
    }

    /// The stack's start tag, and the empty state when there is no child.
    open func renderOpening(into html: inout HTMLWriter) {
        html.writeRaw(#"<main class="stack" id="stack">"#)
        if let heading {
            // Laid out in slots, the stack's light children go where a slot takes them: the heading first.
            // Written in place: as an element with an array of attributes it cost an allocation a page.
            if layout == .pageOrder {
                html.element(Tag.h1.self, class: "page-title") { $0.text(heading) }
            } else {
                html.element(Tag.h1.self, .class("page-title"), HTMLAttribute("slot", Self.headingSlot)) { $0.text(heading) }
            }
        }
        if children.isEmpty {
            div(.class("stack-empty"), .role("status")) { p { emptyStateMessage } }.render(into: &html)
        }
    }

    /// The stack's end tag, then the links that add absent sections.
    open func renderClosing(into html: inout HTMLWriter) {
        html.writeRaw("</main>")
        renderPicker(into: &html)
    }

    /// Reads each live child's version from `source` now, before anything
    /// loads (a change during the load then shows as newer than the card),
    /// and the version of any other child that is live when its card is rendered.
    public func recordLiveVersions(from source: any LiveVersionSource) {
        liveVersions = source
        for child in children { child.liveVersion = Self.version(of: child, from: source) }
    }

    /// Looks each child that has a `cacheKey` up in `cache`, under that key
    /// and the versions of its live keys read now (`recordLiveVersions(from:)`
    /// first): a child found is served as kept, without loading. Children
    /// in `except` are always loaded.
    public func useCache(_ cache: SectionCache, except: Set<SectionID> = []) {
        for child in children {
            guard let key = child.cacheKey, !except.contains(child.id) else { continue }
            let keys = child.liveKeys
            // Live data with no versions to tell when it changed: never kept.
            if !keys.isEmpty && liveVersions == nil { continue }
            let version = keys.isEmpty ? nil : child.liveVersion ?? liveVersions?.version(of: keys)
            child.useCache(cache, key: Self.cacheEntry(of: child.id, key: key, keys: keys, version: version), keys: keys)
        }
    }

    /// Where a card is kept: its section, its `cacheKey`, and, when it is
    /// live, its keys' names and the sum of their versions (versions only
    /// grow, so the sum grows with any change of the data the keys cover).
    public static func cacheEntry(of id: SectionID, key: String, keys: Set<LiveKey>, version: Int?) -> String {
        guard let version, !keys.isEmpty else { return KeyText.joining([id.rawValue, key], separator: 0x1F) }
        // One live key, the usual case: its name is not sorted with others.
        if keys.count == 1, let only = keys.first {
            return KeyText.joining([id.rawValue, key, only.description], then: version, separator: 0x1F)
        }
        return KeyText.joining([id.rawValue, key] + keys.map(\.description).sorted(), then: version, separator: 0x1F)
    }

    /// Times each card of the renders that follow, from none so far.
    func startTimingCards() {
        cardRenderTimes = []
        cardRenderTimes.reserveCapacity(children.count)
        timesCards = true
    }

    /// The slot of the page's heading in the slots layout (no section may take this id).
    static let headingSlot = "stack-heading"

    /// The gaps the last render left, and where its cards ended.
    func takeGaps() -> (gaps: [CardGap], cardsEnd: Int) {
        defer { gaps = [] }
        return (gaps, cardsEnd)
    }

    /// For cards sent in whatever order they finish: a declarative shadow
    /// root lays out one slot per child, in page order, each showing a
    /// placeholder until its card arrives. No script is needed; a browser
    /// without shadow roots shows the cards in arrival order.
    private func renderSlots(stylesheets: [String], into html: inout HTMLWriter) {
        template(HTMLAttribute("shadowrootmode", "open")) {
            for stylesheet in stylesheets { link(.rel("stylesheet"), .href(stylesheet)) }
            if heading != nil { slot(.name(Self.headingSlot)) }
            for child in children {
                slot(.name(child.id.rawValue)) { HTMLRenderer { html in self.renderPlaceholder(for: child, into: &html) } }
            }
            // Cards added later by script have no slot of their own: they go last.
            slot()
        }.render(into: &html)
    }

    /// What shows where `child`'s card will be while it loads: a quiet box
    /// of about a card's height, which the stylesheet hides once the card
    /// follows it (`.section-placeholder:has(+ .section)`).
    public func renderPlaceholder(for child: SectionController, into html: inout HTMLWriter) {
        div(.class("section-placeholder"), .aria("busy", "true")) { "Loading \(child.title)…" }.render(into: &html)
    }

    /// One child in its card, timed when the page is: also served alone as
    /// the section's fragment.
    public final func renderCard(_ child: SectionController, into html: inout HTMLWriter) {
        // Two paths, not an optional start time: copying and destroying an
        // optional instant cost 150 instructions a card that is not timed.
        guard timesCards else { return renderCardMarkup(child, into: &html) }
        let start = ContinuousClock.now
        renderCardMarkup(child, into: &html)
        cardRenderTimes.append((child.id, ContinuousClock.now - start))
    }

    /// The card's markup: header with title and remove link, then the
    /// child's content or fallback. With the `.slots` layout the card must
    /// name its slot (`slot="ID"`).
    ///
    /// Written straight into the writer rather than built as elements: every
    /// card of every page and fragment passes here, and its ids, links and
    /// labels were a string apiece.
    open func renderCardMarkup(_ child: SectionController, into html: inout HTMLWriter) {
        // The id is escaped once and copied where it is written again; so is the title.
        html.writeRaw(#"<section class="section" id="section-"#)
        let idStart = html.count
        html.writeEscaped(child.id.rawValue)
        let id = idStart..<html.count
        html.writeRaw(#"" data-section=""#)
        html.writeAgain(id)
        html.writeRaw(#"" aria-labelledby=""#)
        html.writeAgain(id)
        html.writeRaw(#"-title""#)
        if case .slots = layout {
            html.writeRaw(" slot=\"")
            html.writeAgain(id)
            html.writeRaw("\"")
        }
        // The page script opens the page's event stream only when some card is live.
        if let liveVersions {
            if let version = child.liveVersion ?? Self.version(of: child, from: liveVersions) {
                html.writeRaw(#" data-live=""#)
                html.writeDecimal(version)
                html.writeRaw("\"")
            }
        } else if !child.liveKeys.isEmpty {
            html.writeRaw(#" data-live="""#)
        }
        if child.liveAnnouncement != .polite && !child.liveKeys.isEmpty {
            html.writeAttribute(" data-announce=\"", child.liveAnnouncement.rawValue)
        }
        if case .failed(let error) = child.loadState {
            html.writeAttribute(" data-load=\"", error is SectionTimedOut ? "timed-out" : "failed")
        }
        html.writeRaw(#"><header class="section-header"><h2 id=""#)
        html.writeAgain(id)
        html.writeRaw(#"-title">"#)
        let titleStart = html.count
        html.writeEscaped(child.title)
        let title = titleStart..<html.count
        html.writeRaw("</h2>")
        if let plan, let address {
            html.writeRaw(#"<a class="section-remove" href=""#)
            address.writeURL(showing: plan.sectionIDs(removing: child.id), base: plan.baseIDs, into: &html)
            html.writeRaw(#"" data-section-action="remove" aria-label="Remove "#)
            html.writeAgain(title)
            html.writeRaw(#"">Remove</a>"#)
        }
        html.writeRaw(#"</header><div class="section-body">"#)
        child.renderContent(into: &html)
        if case .failed = child.loadState, let plan, let address {
            // Without script the page loads again, every section with it; with it, this card alone.
            html.writeRaw(#"<p class="section-retry"><a href=""#)
            address.writeURL(showing: plan.sectionIDs, base: plan.baseIDs, into: &html)
            html.writeRaw(#"" data-section-action="retry" data-section=""#)
            html.writeAgain(id)
            html.writeRaw(#"">Try again</a></p>"#)
        }
        html.writeRaw("</div></section>")
    }

    /// The version of `child`'s live data now; `nil` when it is not live.
    private static func version(of child: SectionController, from source: any LiveVersionSource) -> Int? {
        let keys = child.liveKeys
        return keys.isEmpty ? nil : source.version(of: keys)
    }

    /// Links that add each section the page does not show (written straight
    /// into the writer, as the cards are).
    private func renderPicker(into html: inout HTMLWriter) {
        guard let plan, let address else { return }
        // The catalog's entries in order, each with its title: no list of
        // absent ids made, nor each title looked up again by its id.
        var isOpen = false
        for entry in plan.catalog.entries where !plan.sectionIDs.contains(entry.id) {
            if !isOpen {
                html.writeRaw(#"<nav class="section-picker" aria-label="Add sections"><h2>Add a section</h2><ul>"#)
                isOpen = true
            }
            html.writeRaw(#"<li><a href=""#)
            address.writeURL(showing: plan.sectionIDs(adding: entry.id), base: plan.baseIDs, into: &html)
            html.writeRaw(#"" data-section-action="add" data-section=""#)
            html.writeEscaped(entry.id.rawValue)
            html.writeRaw(#"">+ "#)
            html.writeEscaped(entry.title)
            html.writeRaw("</a></li>")
        }
        if isOpen { html.writeRaw("</ul></nav>") }
    }
}

/// Where the versions of live data are read: the server's live hub.
public protocol LiveVersionSource: AnyObject, Sendable {
    /// The version of the data `keys` name, which grows whenever any of it changes.
    func version(of keys: Set<LiveKey>) -> Int
    /// The version of the data `key` names.
    func version(of key: LiveKey) -> Int
    /// A count that goes up, after the version, whenever any version does:
    /// what was current at one count is current while the count stays.
    /// `nil` (the default): not counted, every version is looked up.
    var changeCount: Int? { get }
}

extension LiveVersionSource {
    public func version(of key: LiveKey) -> Int { version(of: [key]) }
    public var changeCount: Int? { nil }
}

/// Where a stack's cards go.
public enum StackLayout: Sendable, Equatable {
    /// One after another, in page order.
    case pageOrder
    /// Into a declarative shadow root's slots, one per section in page
    /// order, so cards can arrive in any order; the shadow tree links
    /// `stylesheets` for the frame around the slots.
    case slots(stylesheets: [String])
}

/// A card not yet rendered: its section was still loading when the page
/// was. `offset` is where in the page's bytes the card belongs.
struct CardGap {
    let offset: Int
    let section: SectionController
}
