import HTTPServer
import Sectional

extension PageDescription {
    /// The description as compact JSON, keys sorted: what `/api/…/sections` sends.
    var compactJSON: [UInt8] {
        var json = JSONWriter(capacity: 256 + 256 * (sections.count + available.count))
        json.object { json in
            json.key("available")
            json.array(available) { json, entry in
                json.object { json in
                    json.key("add")
                    json.string(entry.add)
                    json.key("id")
                    json.string(entry.id.rawValue)
                    json.key("title")
                    json.string(entry.title)
                }
            }
            json.key("layout")
            json.string(layout)
            json.key("page")
            json.string(page)
            json.key("sections")
            json.array(sections) { json, section in
                json.object { json in
                    json.key("fragment")
                    json.string(section.fragment)
                    json.key("id")
                    json.string(section.id.rawValue)
                    json.key("position")
                    json.integer(section.position)
                    json.key("remove")
                    json.string(section.remove)
                    if let status = section.status {
                        json.key("status")
                        json.string(status)
                    }
                    json.key("title")
                    json.string(section.title)
                }
            }
        }
        return json.bytes
    }
}

extension Response {
    /// A page's description as JSON: compact and written directly, or, with
    /// `pretty`, indented for people by `JSONEncoder`.
    static func json(_ description: PageDescription, pretty: Bool) -> Response {
        guard !pretty else { return .json(description, status: .ok, pretty: true) }
        return Response(status: .ok, headers: Response.jsonHeaders, body: .bytes(description.compactJSON))
    }
}
