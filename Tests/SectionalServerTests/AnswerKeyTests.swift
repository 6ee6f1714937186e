import HTTPServer
import Testing

@testable import SectionalServer

/// A kept answer's key is hashed on its bytes, so it is compared on its
/// bytes: two spellings of one accented letter in a query are two keys. Were
/// they equal with two hashes, the memo's dictionary could drop the wrong
/// entry when it evicts one.
@Suite struct AnswerKeyTests {
    @Test func spellingsOfOneLetterAreTwoKeysEachFoundByItself() throws {
        let composed = AnswerKey(.page, of: try Request(method: .get, target: "/feed?q=%C3%A9"), credential: "token")
        let decomposed = AnswerKey(.page, of: try Request(method: .get, target: "/feed?q=e%CC%81"), credential: "token")
        #expect(composed.query[0].value == decomposed.query[0].value, "String's == finds them equal")
        #expect(composed != decomposed)
        let again = AnswerKey(.page, of: try Request(method: .get, target: "/feed?q=%C3%A9"), credential: "token")
        #expect(composed == again && composed.hashValue == again.hashValue)

        var kept = [composed: "composed", decomposed: "decomposed"]
        #expect(kept.count == 2)
        kept[composed] = nil
        #expect(kept[decomposed] == "decomposed" && kept[again] == nil)
    }

    @Test func everyPartOfTheKeyTells() throws {
        let request = try Request(method: .get, target: "/feed?sections=alerts")
        let key = AnswerKey(.page, of: request, credential: "a")
        #expect(key != AnswerKey(.fragment, of: request, credential: "a"))
        #expect(key != AnswerKey(.page, of: request, credential: "b"))
        #expect(key != AnswerKey(.page, of: try Request(method: .get, target: "/feed?sections=balances"), credential: "a"))
        #expect(key != AnswerKey(.page, of: try Request(method: .get, target: "/day?sections=alerts"), credential: "a"))
        #expect(key != AnswerKey(.page, of: try Request(method: .get, target: "/feed?sections=alerts&sections=alerts"), credential: "a"))
    }
}
