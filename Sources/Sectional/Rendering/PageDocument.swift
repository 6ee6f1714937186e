/// A composed page as a document: the head around a controller tree whose
/// stack holds the sections.
///
/// Sent whole, streamed in page order, or streamed as sections finish, it
/// runs one render path: the tree renders itself once, leaving a gap for
/// each card whose section is still loading, and each gap is rendered as
/// its section finishes. Streamed in page order, the bytes are those of
/// the page sent whole, with a placeholder before each card the stream had
/// to wait for (hidden by the stylesheet once its card follows).
public struct PageDocument {
    /// The document's `<title>`.
    public var title: String
    /// What the app puts in every head.
    public var head: DocumentHead
    /// Linked as the page's `rel=canonical` address, when set.
    public var canonicalURL: String?
    /// The tree's root: the page itself, or a shell (a site header) around it.
    public let root: SectionController
    /// The stack whose cards are the sections.
    public let page: StackPageController

    /// The document of the tree at `root`; `page` must be `root` or one of its descendants.
    public init(title: String, head: DocumentHead, canonicalURL: String? = nil, root: SectionController, page: StackPageController) {
        precondition(root === page || root.isAncestor(of: page), "The page must be in the root's tree.")
        self.title = title
        self.head = head
        self.canonicalURL = canonicalURL
        self.root = root
        self.page = page
    }

    /// Loads every section, then renders the whole document, timing each
    /// card (`page.cardRenderTimes`) unless `timingCards` is false.
    public func renderWhole(loading options: LoadOptions, timingCards: Bool = true, into html: inout HTMLWriter) async -> LoadReport {
        let report = await root.loadTree(options)
        renderWhole(timingCards: timingCards, into: &html)
        return report
    }

    private func renderWhole(timingCards: Bool, into html: inout HTMLWriter) {
        guard timingCards else { return render(into: &html) }
        page.startTimingCards()
        render(into: &html)
        page.timesCards = false
    }

    /// Sends the document as it becomes ready: at once everything that needs
    /// no section, then each card in page order as soon as it and the cards
    /// above it are ready; or, with `.asFinished`, each card as it finishes,
    /// into slots that keep page order on screen.
    public func stream(_ order: CardOrder = .pageOrder, loading options: LoadOptions, send: ([UInt8]) -> Void) async -> LoadReport {
        if order == .asFinished { page.layout = .slots(stylesheets: head.stylesheets) }
        var stream = GapFiller(outOfOrder: order == .asFinished)
        let report = await root.loadTree(options) {
            // The page and the controllers around it render first, so their own
            // data must be in: a page's load may add the very cards to stream.
            guard cardsAreKnown else { return }
            stream.renderOnce(self)
            let ready = stream.takeReady(page)
            if !ready.isEmpty { send(ready) }
        }
        stream.renderOnce(self)
        let rest = stream.takeReady(page)
        if !rest.isEmpty { send(rest) }
        return report
    }

    /// Whether everything but the page's cards is final: the page and each
    /// controller above it have had their own loads, and whatever hangs off
    /// that chain beside the page (a shell's banner with data of its own) has
    /// finished. Only the cards can be left as gaps.
    private var cardsAreKnown: Bool {
        if case .notLoaded = page.loadState { return false }
        var below: SectionController = page
        while below !== root, let current = below.parent {
            if case .notLoaded = current.loadState { return false }
            if current.children.contains(where: { $0 !== below && !$0.isLoadFinished }) { return false }
            below = current
        }
        return true
    }

    fileprivate func render(into html: inout HTMLWriter) {
        html.writeDocumentOpening(title: title, head: head, canonicalURL: canonicalURL)
        root.renderContent(into: &html)
        html.writeRaw("</body></html>")
    }
}

/// The order a streamed page sends its cards in.
public enum CardOrder: Sendable, Equatable {
    /// Each card once it and every card above it are ready: the bytes are those of the whole page.
    case pageOrder
    /// Each card as soon as its own section finishes, into a slot that keeps page order on screen.
    case asFinished
}

/// The rendered document with its gaps, and how much of it has been sent.
private struct GapFiller: ~Copyable {
    let outOfOrder: Bool
    var document = HTMLWriter(capacity: 16 * 1024)
    private var hasRendered = false
    private var gaps: [CardGap] = []
    private var sent = 0
    /// In page order, the section whose placeholder went out last.
    private var placeholderShown: ObjectIdentifier?
    /// Out of order, everything before the end of the cards (the shell and
    /// the finished cards) is sent at once; the rest follows the last card.
    private var shellEnd = 0

    init(outOfOrder: Bool) { self.outOfOrder = outOfOrder }

    /// Renders the document, leaving gaps for the cards still loading; once.
    mutating func renderOnce(_ source: PageDocument) {
        guard !hasRendered else { return }
        source.page.leavesGapsForUnfinishedCards = true
        source.render(into: &document)
        source.page.leavesGapsForUnfinishedCards = false
        let (gaps, cardsEnd) = source.page.takeGaps()
        self.gaps = gaps
        shellEnd = gaps.isEmpty ? document.count : cardsEnd
        hasRendered = true
    }

    /// The bytes that can go out now: filled gaps and what lies between them.
    mutating func takeReady(_ page: StackPageController) -> [UInt8] {
        guard hasNewBytes else { return [] }
        // Everything was ready at the first render: the document goes out as it is.
        if gaps.isEmpty && sent == 0 {
            sent = document.count
            return document.bytes
        }
        var ready = HTMLWriter()
        if outOfOrder {
            append(upTo: shellEnd, to: &ready)
            gaps.removeAll { gap in
                guard gap.section.isLoadFinished else { return false }
                page.renderCard(gap.section, into: &ready)
                return true
            }
        } else {
            while let gap = gaps.first, gap.section.isLoadFinished {
                append(upTo: gap.offset, to: &ready)
                page.renderCard(gap.section, into: &ready)
                gaps.removeFirst()
            }
        }
        append(upTo: sendableEnd, to: &ready)
        if !outOfOrder, let waitingFor = gaps.first, sent == waitingFor.offset, placeholderShown != ObjectIdentifier(waitingFor.section) {
            // The reader sees that a card is coming, not the page ending early.
            page.renderPlaceholder(for: waitingFor.section, into: &ready)
            placeholderShown = ObjectIdentifier(waitingFor.section)
        }
        return ready.count > 0 ? ready.bytes : []
    }

    /// How far the document may go out before the first gap still open.
    private var sendableEnd: Int {
        gaps.first.map { outOfOrder ? shellEnd : $0.offset } ?? document.count
    }

    /// Whether a gap can be filled or unsent bytes precede the first gap.
    private var hasNewBytes: Bool {
        gaps.contains { $0.section.isLoadFinished } || sent < sendableEnd
    }

    private mutating func append(upTo end: Int, to ready: inout HTMLWriter) {
        guard end > sent else { return }
        ready.write(document, bytes: sent..<end)
        sent = end
    }
}
