import Sectional
import SectionalSecurity

/// Where a form posts: a path, or a path that names a record by its number
/// (`/feed/alerts/2/dismiss`) kept in its parts, so that writing it into the
/// page and signing it make no string of it.
enum FormAction {
    case path(String)
    /// The path's fixed parts, from the program, around the record's number.
    case record(StaticString, Int, StaticString)
}

/// A form of one button that writes: it posts its hidden field and its
/// token to `action`. With `refreshes`, the page script posts it in place
/// and refreshes that section instead of loading the page again.
struct PostForm: HTML {
    var action: String
    var token: FormToken
    /// The one field the form carries besides its token, if any; its name
    /// from the program.
    var hidden: (name: StaticString, value: String)?
    var label: String
    /// What the button acts on, when the label alone is ambiguous: a screen
    /// reader says the label, then this ("Dismiss Payment due tomorrow").
    var labelObject: String?
    var refreshes: SectionID?
    /// The form's class, from the program.
    var cssClass: StaticString = "post-form"
    /// Whether its button is the page's main action (the stylesheet's `primary` role).
    var isPrimary = false

    func render(into html: inout HTMLWriter) {
        Self.write(
            action: .path(action), token: token, hidden: hidden, label: label, labelObject: labelObject, refreshes: refreshes,
            cssClass: cssClass, isPrimary: isPrimary, into: &html)
    }

    /// Writes the form in place, from what it is given: a page has one of
    /// these per alert, and as a value made per alert its strings were
    /// retained and released, and its action made as a string, about
    /// 1,000 instructions a form.
    static func write(
        action: FormAction, token: FormToken, hidden: (name: StaticString, value: String)? = nil, label: String,
        labelObject: String? = nil, refreshes: SectionID? = nil, cssClass: StaticString, isPrimary: Bool = false,
        into html: inout HTMLWriter
    ) {
        html.element(
            Tag.form.self,
            attributes: { attributes in
                attributes.attribute("class", cssClass)
                attributes.attribute("method", "post")
                attributes.attribute("action") { value in
                    switch action {
                    case .path(let path): value.text(path)
                    case .record(let prefix, let number, let suffix):
                        value.text(prefix)
                        value.write(number)
                        value.text(suffix)
                    }
                }
                if let refreshes { attributes.attribute("data-refresh", refreshes.rawValue) }
            }
        ) { html in
            html.hiddenInput(name: "token") { value in token.withHex { value.text($0) } }
            if let hidden { html.hiddenInput(name: hidden.name, value: hidden.value) }
            html.element(
                Tag.button.self,
                attributes: { attributes in
                    attributes.attribute("type", "submit")
                    if isPrimary { attributes.attribute("class", "primary") }
                    if let labelObject {
                        attributes.attribute("aria-label") { value in
                            value.text(label)
                            value.text(" ")
                            value.text(labelObject)
                        }
                    }
                }
            ) { $0.text(label) }
        }
    }
}
