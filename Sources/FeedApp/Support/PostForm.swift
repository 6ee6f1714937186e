import Sectional
import SectionalSecurity

/// A form of one button that writes: it posts its hidden field and its
/// token to `action`. With `refreshes`, the page script posts it in place
/// and refreshes that section instead of loading the page again.
struct PostForm: HTML {
    var action: String
    var token: FormToken
    /// The one field the form carries besides its token, if any (none has
    /// more: kept without an array, which was an allocation a form).
    var hidden: (name: String, value: String)?
    var label: String
    /// What the button acts on, when the label alone is ambiguous: a screen
    /// reader says the label, then this ("Dismiss Payment due tomorrow").
    var labelObject: String?
    var refreshes: SectionID?
    var cssClass = "post-form"

    /// Written straight into the writer: a page has one of these per alert
    /// and a few more, and as elements each cost more than its section's text.
    func render(into html: inout HTMLWriter) {
        html.writeAttribute(#"<form class=""#, cssClass)
        html.writeAttribute(#" method="post" action=""#, action)
        if let refreshes { html.writeAttribute(#" data-refresh=""#, refreshes.rawValue) }
        html.writeRaw(#"><input type="hidden" name="token" value=""#)
        token.withHex { html.writeRaw($0) }
        html.writeRaw(#"">"#)
        if let hidden {
            html.writeAttribute(#"<input type="hidden" name=""#, hidden.name)
            html.writeAttribute(#" value=""#, hidden.value)
            html.writeRaw(">")
        }
        html.writeRaw(#"<button type="submit""#)
        if let labelObject {
            html.writeRaw(#" aria-label=""#)
            html.writeEscaped(label)
            html.writeRaw(" ")
            html.writeEscaped(labelObject)
            html.writeRaw("\"")
        }
        html.writeRaw(">")
        html.writeEscaped(label)
        html.writeRaw("</button></form>")
    }
}
