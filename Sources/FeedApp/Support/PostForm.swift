import Sectional

/// A form of one button that writes: it posts its hidden fields and its
/// token to `action`. With `refreshes`, the page script posts it in place
/// and refreshes that section instead of loading the page again.
struct PostForm: HTML {
    var action: String
    var token: String
    var hidden: [(name: String, value: String)] = []
    var label: String
    /// What a screen reader says for the button, when the label alone is ambiguous.
    var accessibleLabel: String?
    var refreshes: SectionID?
    var cssClass = "post-form"

    func render(into html: inout HTMLWriter) {
        // Each choice spelled out: attributes are cheapest as a list written at once.
        if let refreshes {
            form(.class(cssClass), .method("post"), .action(action), .data("refresh", refreshes.rawValue)) { fields }.render(into: &html)
        } else {
            form(.class(cssClass), .method("post"), .action(action)) { fields }.render(into: &html)
        }
    }

    @HTMLBuilder private var fields: some HTML {
        input(.type("hidden"), .name("token"), .value(token))
        ForEach(hidden) { field in input(.type("hidden"), .name(field.name), .value(field.value)) }
        if let accessibleLabel {
            button(.type("submit"), .aria("label", accessibleLabel)) { label }
        } else {
            button(.type("submit")) { label }
        }
    }
}
