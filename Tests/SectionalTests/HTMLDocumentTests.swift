import Testing

@testable import Sectional

@Suite("HTMLDocument")
struct HTMLDocumentTests {
    private let head = DocumentHead(
        language: "en", viewport: "width=device-width, initial-scale=1", stylesheets: ["/styles.css"], scripts: ["/app.js"],
        icon: .init(href: "/favicon.svg", type: "image/svg+xml"))

    @Test func documentHasDoctypeHeadAndBody() {
        let html = HTMLDocument(title: "Feed", head: head, canonicalURL: "/feed") {
            main { p { "Hello" } }
        }.render()

        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en\"><head>"))
        #expect(html.hasSuffix("<body><main><p>Hello</p></main></body></html>"))
        let head = slice(of: html, from: "<head>", through: "</head>")
        #expect(head?.contains(#"<meta charset="utf-8">"#) == true)
        #expect(head?.contains(#"<meta name="viewport" content="width=device-width, initial-scale=1">"#) == true)
        #expect(head?.contains("<title>Feed</title>") == true)
        #expect(head?.contains(#"<link rel="stylesheet" href="/styles.css">"#) == true)
        #expect(head?.contains(#"<link rel="icon" href="/favicon.svg" type="image/svg+xml">"#) == true)
        #expect(head?.contains(#"<link rel="canonical" href="/feed">"#) == true)
        #expect(head?.contains(#"<script src="/app.js" defer></script>"#) == true)
        #expect(occurrences(of: "<title>", in: html) == 1)
        #expect(occurrences(of: "<body>", in: html) == 1)
    }

    @Test func aHeadChangedIsAValueOfItsOwn() {
        var changed = head
        #expect(changed == head)
        changed.stylesheets.append("/print.css")
        changed.language = "fr"
        changed.icon = nil
        // The head it was copied from is as it was; the copy shows its changes.
        #expect(head.stylesheets == ["/styles.css"] && head.language == "en" && head.icon?.href == "/favicon.svg")
        #expect(changed.stylesheets == ["/styles.css", "/print.css"] && changed.language == "fr" && changed.icon == nil)
        #expect(changed != head)
        changed.stylesheets.removeLast()
        changed.language = "en"
        changed.icon = head.icon
        #expect(changed == head, "equal by their fields, not by identity")
        let html = HTMLDocument(title: "T", head: changed) { p { "x" } }.render()
        #expect(html.contains(#"<html lang="en">"#) && html.contains(#"<link rel="stylesheet" href="/styles.css">"#) && !html.contains("print"))
    }

    @Test func titleLanguageAndCanonicalURLAreEscaped() {
        let head = DocumentHead(language: #"en" onload="x"#)
        let html = HTMLDocument(title: "</title><script>alert(1)</script>", head: head, canonicalURL: #"/feed?sections=a,b&date="x""#) {
            EmptyHTML()
        }.render()

        #expect(html.contains("<title>&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"))
        #expect(html.contains(#"<link rel="canonical" href="/feed?sections=a,b&amp;date=&quot;x&quot;">"#))
        #expect(html.contains(#"<html lang="en&quot; onload=&quot;x">"#))
        #expect(!html.contains("<script>"))
    }

    @Test func nothingIsAssumedBeyondTheHead() {
        let html = HTMLDocument(title: "Plain", head: DocumentHead(language: "de")) { p { "x" } }.render()
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"de\">"))
        #expect(!html.contains(#"rel="canonical""#))
        #expect(!html.contains(#"rel="stylesheet""#))
        #expect(!html.contains(#"rel="icon""#))
        #expect(!html.contains("viewport"))
        #expect(!html.contains("<script"))
    }

    @Test func stylesheetsKeepTheirOrder() {
        let html = HTMLDocument(title: "T", head: DocumentHead(language: "en", stylesheets: ["/a.css", "/b.css"])) { EmptyHTML() }.render()
        let a = html.firstRange(of: #"href="/a.css""#)
        let b = html.firstRange(of: #"href="/b.css""#)
        #expect(a != nil && b != nil)
        if let a, let b { #expect(a.lowerBound < b.lowerBound) }
    }
}
