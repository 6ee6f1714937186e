// Fuzzes the query-to-composition plan: random query strings through the
// server's own query parser into `CompositionPlan`, then checks what the
// plan promises (Sources/Sectional/Composition/CompositionPlan.swift).
import HTTPServer
import Sectional

let catalog = SectionCatalog(
    entries: [
        .init(id: "balances", title: "Balances"), .init(id: "alerts", title: "Alerts"),
        .init(id: "credit-score", title: "Credit score"), .init(id: "recent-activity", title: "Recent activity"),
        .init(id: "checkup", title: "Financial check-up"),
    ],
    defaultIDs: ["balances", "alerts", "credit-score"])
let address = PageAddress(path: "/feed", context: [.init("date", "2026-11-03")])

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCompositionPlan(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let query: [QueryItem]
    do {
        query = try QueryItem.parse(Substring(String(decoding: input, as: UTF8.self)))
    } catch {
        if error.status.code != 400 || error.message.isEmpty { fuzzFailure("query parse failed without a 400 and a message", input: input) }
        return 0
    }
    let pairs = query.map { (name: $0.name, value: $0.value) }
    let plan: CompositionPlan
    do {
        plan = try CompositionPlan(catalog: catalog, query: pairs)
    } catch {
        if error.unknownIDs.isEmpty || error.unknownIDs.contains(where: catalog.contains) || error.validIDs != catalog.ids
            || !error.description.contains("Valid sections: balances, alerts, credit-score, recent-activity, checkup.")
        {
            fuzzFailure("a composition error that does not name the unknown and the valid ids: \(error)", input: input)
        }
        return 0
    }
    check(plan, pairs: pairs, input: input)
    return 0
}

private func ids(_ pairs: [(name: String, value: String)], _ name: String) -> [SectionID] {
    pairs.filter { $0.name == name }.flatMap { $0.value.split(separator: ",").map { $0.trimmingCharacters(in: " ") } }
        .filter { !$0.isEmpty }.map(SectionID.init)
}

private extension Substring {
    func trimmingCharacters(in character: Character) -> Substring {
        var trimmed = self
        while trimmed.first == character { trimmed = trimmed.dropFirst() }
        while trimmed.last == character { trimmed = trimmed.dropLast() }
        return trimmed
    }
}

private func check(_ plan: CompositionPlan, pairs: [(name: String, value: String)], input: [UInt8]) {
    let shown = plan.sectionIDs
    let removed = Set(ids(pairs, "remove"))
    let listed = pairs.contains { $0.name == "sections" } ? ids(pairs, "sections") : catalog.defaultIDs
    let added = ids(pairs, "add")
    if Set(shown).count != shown.count { fuzzFailure("duplicate sections \(shown)", input: input) }
    if shown.contains(where: { !catalog.contains($0) }) { fuzzFailure("unknown section shown \(shown)", input: input) }
    if shown.contains(where: removed.contains) { fuzzFailure("a removed section is shown \(shown)", input: input) }
    // Exactly the listed-then-added ids, first occurrence kept, removed ones dropped, in that order.
    var seen = Set<SectionID>()
    let expected = (listed + added).filter { seen.insert($0).inserted && !removed.contains($0) }
    if shown != expected { fuzzFailure("plan \(shown), expected \(expected)", input: input) }
    if Set(plan.absentIDs).union(shown) != Set(catalog.ids) || !Set(plan.absentIDs).isDisjoint(with: shown) {
        fuzzFailure("absent ids \(plan.absentIDs) do not complement \(shown)", input: input)
    }
    // Every link the page would print reads back as the plan it stands for.
    roundTrip(plan, input: input)
    for id in shown { roundTrip(plan.removing(id), input: input) }
    for id in plan.absentIDs { roundTrip(plan.adding(id), input: input) }
    let description = PageDescription(plan: plan, address: address)
    if description.sections.map(\.id) != shown || description.available.map(\.id) != plan.absentIDs {
        fuzzFailure("the JSON description disagrees with the plan", input: input)
    }
}

private func roundTrip(_ plan: CompositionPlan, input: [UInt8]) {
    let url = address.url(for: plan)
    let reread: CompositionPlan
    do {
        let request = try Request(method: .get, target: url)
        if request.path != "/feed" || request.queryValue("date") != "2026-11-03" { fuzzFailure("link \(url) lost its path or context", input: input) }
        reread = try CompositionPlan(catalog: catalog, query: request.query.map { (name: $0.name, value: $0.value) })
    } catch {
        fuzzFailure("link \(url) does not parse back: \(error)", input: input)
    }
    if reread.sectionIDs != plan.sectionIDs { fuzzFailure("link \(url) reads back as \(reread.sectionIDs), not \(plan.sectionIDs)", input: input) }
}
