import Testing

@testable import Sectional

/// The rules of DESIGN.md §3 that turn `sections=`, `add=` and `remove=`
/// into the ordered list of sections a page shows.
@Suite("CompositionPlan")
struct CompositionPlanTests {
    struct Rule: Sendable, CustomTestStringConvertible {
        enum Outcome: Sendable, Equatable {
            case shows([SectionID])
            case unknown([SectionID])
        }

        var name: String
        var items: [Item]
        var outcome: Outcome

        struct Item: Sendable {
            var name: String
            var value: String
        }

        init(_ name: String, _ items: [(String, String)], _ outcome: Outcome) {
            self.name = name
            self.items = items.map { Item(name: $0.0, value: $0.1) }
            self.outcome = outcome
        }

        var query: [(name: String, value: String)] { items.map { (name: $0.name, value: $0.value) } }
        var testDescription: String { name }
    }

    static let rules: [Rule] = [
        Rule("no query: the default", [], .shows(["balances", "alerts", "credit-score"])),
        Rule("other items are ignored", [("date", "2026-11-03"), ("utm", "x")], .shows(["balances", "alerts", "credit-score"])),
        Rule("sections= comma list, in its order", [("sections", "credit-score,balances")], .shows(["credit-score", "balances"])),
        Rule("sections= repeated", [("sections", "credit-score"), ("sections", "alerts")], .shows(["credit-score", "alerts"])),
        Rule(
            "sections= comma list and repeated", [("sections", "checkup,alerts"), ("sections", "balances")],
            .shows(["checkup", "alerts", "balances"])),
        Rule("sections= spaces and empty items", [("sections", " alerts , ,balances,")], .shows(["alerts", "balances"])),
        Rule("empty sections= shows nothing", [("sections", "")], .shows([])),
        Rule("sections= of commas shows nothing", [("sections", ",,")], .shows([])),
        Rule("empty sections= then add", [("sections", ""), ("add", "checkup")], .shows(["checkup"])),
        Rule("add appends at the end", [("add", "recent-activity")], .shows(["balances", "alerts", "credit-score", "recent-activity"])),
        Rule(
            "add several, in order", [("add", "checkup,recent-activity")],
            .shows(["balances", "alerts", "credit-score", "checkup", "recent-activity"])),
        Rule("add after sections=", [("sections", "alerts"), ("add", "balances")], .shows(["alerts", "balances"])),
        Rule("add before sections= still goes last", [("add", "checkup"), ("sections", "alerts")], .shows(["alerts", "checkup"])),
        Rule("adding a shown section is a no-op", [("add", "balances")], .shows(["balances", "alerts", "credit-score"])),
        Rule("remove", [("remove", "alerts")], .shows(["balances", "credit-score"])),
        Rule("remove several, repeated", [("remove", "alerts"), ("remove", "balances")], .shows(["credit-score"])),
        Rule("remove every section", [("remove", "balances,alerts,credit-score")], .shows([])),
        Rule("remove from sections=", [("sections", "alerts,balances"), ("remove", "balances")], .shows(["alerts"])),
        Rule("removing an absent section is a no-op", [("remove", "checkup")], .shows(["balances", "alerts", "credit-score"])),
        Rule("duplicates collapse to the first", [("sections", "alerts,balances,alerts")], .shows(["alerts", "balances"])),
        Rule(
            "duplicates across repeated keys", [("sections", "credit-score"), ("sections", "alerts,credit-score")],
            .shows(["credit-score", "alerts"])),
        Rule(
            "duplicate adds collapse", [("add", "checkup"), ("add", "checkup,checkup")], .shows(["balances", "alerts", "credit-score", "checkup"])),
        Rule("removal wins over add", [("add", "checkup"), ("remove", "checkup")], .shows(["balances", "alerts", "credit-score"])),
        Rule(
            "removal wins over add, whatever the order", [("remove", "checkup"), ("add", "checkup")], .shows(["balances", "alerts", "credit-score"])),
        Rule("removal wins over sections=", [("sections", "alerts,checkup"), ("remove", "checkup")], .shows(["alerts"])),
        Rule("unknown in sections=", [("sections", "alerts,nope")], .unknown(["nope"])),
        Rule("unknown in add", [("add", "nope")], .unknown(["nope"])),
        Rule("unknown in remove", [("remove", "nope")], .unknown(["nope"])),
        Rule("ids are case-sensitive", [("sections", "Alerts")], .unknown(["Alerts"])),
        Rule("every unknown is named once, in order", [("sections", "x,alerts,y"), ("add", "x"), ("remove", "z")], .unknown(["x", "y", "z"])),
    ]

    @Test(arguments: rules)
    func rule(_ rule: Rule) throws {
        switch rule.outcome {
        case .shows(let expected):
            let plan = try CompositionPlan(catalog: feedCatalog, query: rule.query)
            #expect(plan.sectionIDs == expected)
            #expect(plan.catalog == feedCatalog)
        case .unknown(let expected):
            let error = #expect(throws: CompositionError.self) { try CompositionPlan(catalog: feedCatalog, query: rule.query) }
            #expect(error?.unknownIDs == expected)
            #expect(error?.validIDs == feedCatalog.ids)
        }
    }

    @Test func errorNamesTheUnknownAndTheValidIDs() throws {
        let error = #expect(throws: CompositionError.self) {
            try CompositionPlan(catalog: feedCatalog, query: query(("sections", "alerts,bogus"), ("add", "<script>")))
        }
        let message = try #require(error).description
        #expect(message.contains("'bogus'"))
        #expect(message.contains("'<script>'"))
        for id in feedCatalog.ids { #expect(message.contains(id.rawValue), "valid id \(id) missing from: \(message)") }
        #expect(!message.contains("'alerts'"), "a known id is not called unknown: \(message)")
    }

    @Test func defaultInitializerShowsTheDefaultList() {
        let plan = CompositionPlan(catalog: feedCatalog)
        #expect(plan.sectionIDs == feedCatalog.defaultIDs)
        #expect(plan.queryItems.isEmpty)
    }

    @Test(arguments: rules.filter { if case .shows = $0.outcome { true } else { false } })
    func canonicalQueryItemsRoundTrip(_ rule: Rule) throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: rule.query)
        let again = try CompositionPlan(catalog: feedCatalog, query: plan.queryItems)
        #expect(again == plan)
        if plan.sectionIDs == feedCatalog.defaultIDs {
            #expect(plan.queryItems.isEmpty, "the default composition has no query")
        } else {
            #expect(plan.queryItems.map(\.name) == ["sections"])
            #expect(plan.queryItems.map(\.value) == [plan.sectionIDs.map(\.rawValue).joined(separator: ",")])
        }
    }

    @Test func emptyPlanIsSpelledAsEmptySections() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "")))
        #expect(plan.queryItems.map(\.name) == ["sections"])
        #expect(plan.queryItems.map(\.value) == [""])
    }

    @Test func addingAndRemovingReturnNewPlans() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "alerts,balances")))

        #expect(plan.adding("checkup").sectionIDs == ["alerts", "balances", "checkup"])
        #expect(plan.adding("alerts") == plan, "adding a shown section is a no-op")
        #expect(plan.removing("alerts").sectionIDs == ["balances"])
        #expect(plan.removing("checkup") == plan, "removing an absent section is a no-op")
        #expect(plan.sectionIDs == ["alerts", "balances"], "the plan itself is unchanged")
    }

    @Test func absentIDsFollowCatalogOrder() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "checkup,credit-score")))
        #expect(plan.absentIDs == ["balances", "alerts", "recent-activity"])
        #expect(CompositionPlan(catalog: feedCatalog).absentIDs == ["recent-activity", "checkup"])
        let everything = try CompositionPlan(catalog: feedCatalog, query: query(("add", "checkup,recent-activity")))
        #expect(everything.absentIDs.isEmpty)
    }

    /// The views an add or remove link is written from hold exactly what the plan with the change shows.
    @Test func idsWithOneMoreOrOneFewerAreThoseOfTheChangedPlan() throws {
        let plan = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "balances,alerts,credit-score")))
        for id in plan.sectionIDs + ["checkup"] {
            #expect(Array(plan.sectionIDs(removing: id)) == plan.removing(id).sectionIDs, "without \(id)")
            #expect(plan.sectionIDs(removing: id).count == plan.removing(id).sectionIDs.count)
        }
        #expect(Array(plan.sectionIDs(adding: "checkup")) == plan.adding("checkup").sectionIDs)
        let empty = try CompositionPlan(catalog: feedCatalog, query: query(("sections", "")))
        #expect(Array(empty.sectionIDs(adding: "alerts")) == ["alerts"])
        #expect(empty.sectionIDs(removing: "alerts").isEmpty)
    }

    @Test func catalogsAreEqualWhenTheyOfferTheSameSectionsAndDefaults() {
        let alike = SectionCatalog(entries: feedCatalog.entries, defaultIDs: ["balances", "alerts", "credit-score", "alerts"])
        #expect(alike == feedCatalog)
        #expect(alike.defaultIDs == ["balances", "alerts", "credit-score"], "a repeated default is shown once")
        #expect(alike.ids == ["balances", "alerts", "credit-score", "recent-activity", "checkup"])
        #expect(SectionCatalog(entries: feedCatalog.entries, defaultIDs: ["alerts"]) != feedCatalog)
        #expect(SectionCatalog(entries: Array(feedCatalog.entries.dropLast()), defaultIDs: feedCatalog.defaultIDs) != feedCatalog)
        #expect(
            SectionCatalog(entries: feedCatalog.entries.map { .init(id: $0.id, title: $0.title + "!") }, defaultIDs: feedCatalog.defaultIDs)
                != feedCatalog)
    }
}
