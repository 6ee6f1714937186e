import Sectional

/// Where a form posts: a path, or a path that names a record by its number
/// (`/feed/alerts/2/dismiss`) kept in its parts, so that writing it into the
/// page and signing it make no string of it.
public enum FormAction: Sendable {
    /// A path, e.g. `/signout`.
    case path(String)
    /// The path's fixed parts, from the program, around the record's number.
    case record(StaticString, Int, StaticString)
}

/// A form of one button that writes: it posts its hidden field and its
/// token to `action`. With `refreshes`, the framework's page script posts it
/// in place and refreshes that section instead of loading the page again;
/// without script it is an ordinary post.
///
/// ```swift
/// PostForm(action: path, token: forms.formToken(for: path, subject: session), label: "Dismiss", refreshes: Self.id)
/// ```
public struct PostForm: HTML {
    /// Where it posts.
    public var action: String
    /// Its token, signed for `action` and the visitor's session (`FormGuard.formToken(for:subject:)`).
    public var token: FormToken
    /// The one field the form carries besides its token, if any; its name
    /// from the program.
    public var hidden: (name: StaticString, value: String)?
    /// The button's text.
    public var label: String
    /// What the button acts on, when the label alone is ambiguous: a screen
    /// reader says the label, then this ("Dismiss Payment due tomorrow").
    public var labelObject: String?
    /// The section the page script refreshes once it has posted in place.
    public var refreshes: SectionID?
    /// The form's class, from the program.
    public var cssClass: StaticString
    /// Whether its button is the page's main action (the stylesheet's `primary` role).
    public var isPrimary: Bool

    /// A form posting `token`, and `hidden` if given, to `action`, from a button reading `label`.
    public init(
        action: String, token: FormToken, hidden: (name: StaticString, value: String)? = nil, label: String, labelObject: String? = nil,
        refreshes: SectionID? = nil, cssClass: StaticString = "post-form", isPrimary: Bool = false
    ) {
        self.action = action
        self.token = token
        self.hidden = hidden
        self.label = label
        self.labelObject = labelObject
        self.refreshes = refreshes
        self.cssClass = cssClass
        self.isPrimary = isPrimary
    }

    public func render(into html: inout HTMLWriter) {
        Self.write(
            action: .path(action), token: token, hidden: hidden, label: label, labelObject: labelObject, refreshes: refreshes,
            cssClass: cssClass, isPrimary: isPrimary, into: &html)
    }

    /// Writes the form in place, from what it is given: a page has one of
    /// these per alert, and as a value made per alert its strings were
    /// retained and released, and its action made as a string, about
    /// 1,000 instructions a form.
    public static func write(
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
