import HTTPServer
import Sectional

extension PageDescription {
    /// The description of `plan` at `address` as compact JSON, keys sorted:
    /// what `/api/…/sections` sends. Written straight from the plan, with no
    /// description or string made per URL; byte for byte what `JSONEncoder`
    /// writes for `PageDescription(plan:address:report:)` (a test holds them equal).
    static func compactJSON(plan: CompositionPlan, address: PageAddress, report: LoadReport?) -> ResponseBuffer {
        let shown = plan.sectionIDs
        let absent = plan.absentIDs
        var json = JSONWriter(capacity: 256 + 256 * (shown.count + absent.count))
        json.object { json in
            json.key("available")
            json.array(absent) { json, id in
                json.object { json in
                    json.key("add")
                    json.string { address.appendURL(showing: plan.sectionIDs(adding: id), base: plan.baseIDs, to: &$0) }
                    json.key("id")
                    json.string(id.rawValue)
                    json.key("title")
                    json.string(plan.catalog.title(of: id) ?? id.rawValue)
                }
            }
            json.key("layout")
            json.string(plan.layout.rawValue)
            json.key("page")
            json.string { address.appendURL(showing: shown, base: plan.baseIDs, to: &$0) }
            json.key("sections")
            json.array(shown.enumerated()) { json, entry in
                let (index, id) = entry
                json.object { json in
                    json.key("fragment")
                    json.string { address.appendURL(showing: shown, base: plan.baseIDs, fragment: id, to: &$0) }
                    json.key("id")
                    json.string(id.rawValue)
                    json.key("position")
                    json.integer(index + 1)
                    json.key("remove")
                    json.string { address.appendURL(showing: plan.sectionIDs(removing: id), base: plan.baseIDs, to: &$0) }
                    if let report {
                        json.key("status")
                        json.string(report.outcome(of: id)?.status.name ?? "ok")
                    }
                    json.key("title")
                    json.string(plan.catalog.title(of: id) ?? id.rawValue)
                }
            }
        }
        return ResponseBuffer(taking: json.takeBuffer())
    }
}

extension Response {
    /// The description of `plan` at `address` as JSON: compact and written
    /// directly, or, with `pretty`, indented for people by `JSONEncoder`.
    static func description(of plan: CompositionPlan, at address: PageAddress, report: LoadReport?, pretty: Bool) -> Response {
        guard !pretty else {
            return .json(PageDescription(plan: plan, address: address, report: report), status: .ok, pretty: true)
        }
        let json = PageDescription.compactJSON(plan: plan, address: address, report: report)
        return Response(status: .ok, headers: Response.jsonHeaders, body: .buffer(json))
    }
}
