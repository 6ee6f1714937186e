import Testing

@testable import Sectional

@Suite("How a live card's change is announced")
struct LiveAnnouncementTests {
    private final class Ticker: SectionController {
        let announcement: LiveAnnouncement
        let keys: Set<LiveKey>

        init(_ announcement: LiveAnnouncement, keys: Set<LiveKey> = ["prices:1"]) {
            self.announcement = announcement
            self.keys = keys
            super.init(id: "ticker", title: "Ticker")
        }

        override var liveAnnouncement: LiveAnnouncement { announcement }
        override var liveKeys: Set<LiveKey> { keys }
    }

    private func card(_ section: SectionController) -> String {
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(section)
        var html = HTMLWriter()
        page.renderCard(section, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }

    @Test("A card says its politeness unless it is the default; a card that is not live says none")
    func politeness() {
        #expect(!card(Ticker(.polite)).contains("data-announce"))
        #expect(card(Ticker(.assertive)).contains(#" data-announce="assertive""#))
        #expect(card(Ticker(.off)).contains(#" data-announce="off""#))
        #expect(!card(Ticker(.off, keys: [])).contains("data-announce"), "never swapped in, never announced")
    }
}
