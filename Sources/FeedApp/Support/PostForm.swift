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
        var attributes: [HTMLAttribute] = [.class(cssClass), .method("post"), .action(action)]
        if let refreshes { attributes.append(.data("refresh", refreshes.rawValue)) }
        form(attributes: attributes) {
            input(.type("hidden"), .name("token"), .value(token))
            for field in hidden { input(.type("hidden"), .name(field.name), .value(field.value)) }
            button(attributes: [.type("submit")] + (accessibleLabel.map { [.aria("label", $0)] } ?? [])) { label }
        }.render(into: &html)
    }
}
