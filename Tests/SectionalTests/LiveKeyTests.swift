import Sectional
import Testing

@Suite("Live keys and section lists as text")
struct LiveKeyTests {
    @Test("A key is its kind and its owner, as replicas send it and the triggers write it")
    func keyText() {
        #expect(LiveKey("alerts", of: 7).description == "alerts:7")
        #expect(LiveKey("alerts", of: 7) == LiveKey(stored: "alerts:7"))
        // Longer than a string kept inline, and not ASCII: every byte in its place.
        let board = "board-of-the-Zürich-branch, second floor"
        #expect(LiveKey("notices", of: board).description == "notices:" + board)
        #expect(LiveKey("", of: "").description == ":")
        #expect(Set([LiveKey("alerts", of: 7), LiveKey(stored: "alerts:7"), LiveKey("alerts", of: 8)]).count == 2)
    }

    @Test("Section ids joined by commas: none, one, several")
    func commaSeparated() {
        #expect([SectionID]().commaSeparated == "")
        #expect(([SectionID("alerts")]).commaSeparated == "alerts")
        #expect(([SectionID("balances"), "credit-score", "recent-activity"]).commaSeparated == "balances,credit-score,recent-activity")
        #expect(([SectionID(""), "alerts"]).commaSeparated == ",alerts", "an empty id keeps its place")
    }
}
