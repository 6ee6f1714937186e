import Foundation
import Testing

@testable import Sectional

/// Canonical URLs for a composed page and its fragments, and the JSON
/// description built from them.
@Suite("PageAddress and PageDescription")
struct PageAddressTests {
    let feed = PageAddress(path: "/feed")

    @Test func defaultPlanHasABareURL() {
        let plan = CompositionPlan(catalog: feedCatalog)
        #expect(feed.url(for: plan) == "/feed")
        #expect(feed.fragmentURL(of: "alerts", in: plan) == "/feed/sections/alerts")
    }

    @Test func otherPlansListTheirSectionsWithReadableCommas() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "credit-score,balances")))
        #expect(feed.url(for: plan) == "/feed?sections=credit-score,balances")
        #expect(feed.fragmentURL(of: "balances", in: plan) == "/feed/sections/balances?sections=credit-score,balances")
        let none = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "")))
        #expect(feed.url(for: none) == "/feed?sections=")
    }

    @Test func contextComesFirstAndIsPercentEncoded() throws {
        let address = PageAddress(path: "/day", context: [.init("date", "2026-11-03"), .init("q&x", "a b&c=d/é?#+%,~")])
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("remove", "alerts")))

        #expect(
            address.url(for: CompositionPlan(catalog: feedCatalog))
                == "/day?date=2026-11-03&q%26x=a%20b%26c%3Dd%2F%C3%A9%3F%23%2B%25,~")
        #expect(
            address.url(for: plan)
                == "/day?date=2026-11-03&q%26x=a%20b%26c%3Dd%2F%C3%A9%3F%23%2B%25,~&sections=balances,credit-score")
        #expect(
            address.fragmentURL(of: "balances", in: plan)
                == "/day/sections/balances?date=2026-11-03&q%26x=a%20b%26c%3Dd%2F%C3%A9%3F%23%2B%25,~&sections=balances,credit-score")
    }

    @Test(arguments: [0x01, 0x0A, 0x7F] as [UInt8])
    func controlBytesAreEncodedWithTwoHexDigits(_ byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        let expected = "%" + String(repeating: "0", count: 2 - hex.count) + hex
        let value = String(decoding: [byte], as: UTF8.self)
        let address = PageAddress(path: "/p", context: [.init("v", value)])
        #expect(address.url(for: CompositionPlan(catalog: feedCatalog)) == "/p?v=" + expected)
    }

    @Test func descriptionListsSectionsWithPositionsAndFragments() throws {
        let address = PageAddress(path: "/feed", context: [.init("date", "2026-11-03")])
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "credit-score,checkup")))
        let description = PageDescription(plan: plan, address: address)

        let fragmentQuery = "?date=2026-11-03&sections=credit-score,checkup"
        #expect(description.page == "/feed" + fragmentQuery)
        #expect(
            description.sections == [
                .init(
                    id: "credit-score", title: "Credit score", position: 1,
                    fragment: "/feed/sections/credit-score" + fragmentQuery,
                    remove: "/feed?date=2026-11-03&sections=checkup"),
                .init(
                    id: "checkup", title: "Financial check-up", position: 2,
                    fragment: "/feed/sections/checkup" + fragmentQuery,
                    remove: "/feed?date=2026-11-03&sections=credit-score"),
            ])
        #expect(
            description.available == [
                .init(id: "balances", title: "Balances", add: "/feed?date=2026-11-03&sections=credit-score,checkup,balances"),
                .init(id: "alerts", title: "Alerts", add: "/feed?date=2026-11-03&sections=credit-score,checkup,alerts"),
                .init(
                    id: "recent-activity", title: "Recent activity",
                    add: "/feed?date=2026-11-03&sections=credit-score,checkup,recent-activity"),
            ])
    }

    @Test func descriptionLinksBackToTheDefaultWithoutQuery() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("remove", "alerts")))
        let description = PageDescription(plan: plan, address: feed)
        #expect(
            description.available.first { $0.id == "alerts" }?.add == "/feed?sections=balances,credit-score,alerts",
            "an added section goes last, so this is not the default order")
        let added = try CompositionPlan(catalog: feedCatalog, query: query(("add", "checkup")))
        #expect(PageDescription(plan: added, address: feed).sections.last?.remove == "/feed")
    }

    @Test func descriptionOfAnEmptyPageOffersEverySection() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "")))
        let description = PageDescription(plan: plan, address: feed)
        #expect(description.page == "/feed?sections=")
        #expect(description.sections.isEmpty)
        #expect(description.available.map(\.id) == feedCatalog.ids)
    }

    @Test func descriptionEncodesToJSONAndBack() throws {
        let description = PageDescription(plan: CompositionPlan(catalog: feedCatalog), address: feed)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let json = String(decoding: try encoder.encode(description), as: UTF8.self)

        #expect(
            json.hasPrefix(
                #"{"available":[{"add":"/feed?sections=balances,alerts,credit-score,recent-activity","id":"recent-activity","title":"Recent activity"}"#
            ))
        #expect(json.contains(#""page":"/feed""#))
        #expect(
            json.contains(
                #"{"fragment":"/feed/sections/balances","id":"balances","position":1,"remove":"/feed?sections=alerts,credit-score","title":"Balances"}"#
            ))
        #expect(try JSONDecoder().decode(PageDescription.self, from: Data(json.utf8)) == description)
    }
}
