import Sectional
import SectionalSecurity

/// A form of one button that writes: it posts its hidden field and its
/// token to `action`. With `refreshes`, the page script posts it in place
/// and refreshes that section instead of loading the page again.
struct PostForm: HTML {
    var action: String
    var token: FormToken
    /// The one field the form carries besides its token, if any (none has
    /// more: kept without an array, which was an allocation a form); its
    /// name from the program, written as it is.
    var hidden: (name: StaticString, value: String)?
    var label: String
    /// What the button acts on, when the label alone is ambiguous: a screen
    /// reader says the label, then this ("Dismiss Payment due tomorrow").
    var labelObject: String?
    var refreshes: SectionID?
    /// The form's class, from the program: written as it is.
    var cssClass: StaticString = "post-form"

    func render(into html: inout HTMLWriter) {
        var action = action
        action.withUTF8 { action in
            Self.write(
                action: action, token: token, hidden: hidden, label: label, labelObject: labelObject, refreshes: refreshes,
                cssClass: cssClass, into: &html)
        }
    }

    /// Writes the form straight into the writer, its action given as bytes
    /// (one made on the stack needs no string). A page has one of these per
    /// alert and a few more: as elements each cost more than its section's
    /// text, and as a value made per alert its strings were retained and
    /// released, and its action made as a string, about 1,000 instructions a form.
    static func write(
        action: UnsafeBufferPointer<UInt8>, token: FormToken, hidden: (name: StaticString, value: String)? = nil, label: String,
        labelObject: String? = nil, refreshes: SectionID? = nil, cssClass: StaticString, into html: inout HTMLWriter
    ) {
        html.writeRaw(#"<form class=""#)
        html.writeRaw(cssClass)
        html.writeRaw(#"" method="post" action=""#)
        html.writeEscaped(action)
        html.writeRaw("\"")
        if let refreshes { html.writeAttribute(#" data-refresh=""#, refreshes.rawValue) }
        html.writeRaw(#"><input type="hidden" name="token" value=""#)
        token.withHex { html.writeRaw($0) }
        html.writeRaw(#"">"#)
        if let hidden {
            html.writeRaw(#"<input type="hidden" name=""#)
            html.writeRaw(hidden.name)
            html.writeAttribute(#"" value=""#, hidden.value)
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
