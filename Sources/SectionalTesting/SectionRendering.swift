import Sectional

/// A section rendered alone, after its load: its content, its card as a
/// page shows it, and how its load went.
public struct RenderedSection: Sendable {
    /// What the section itself renders (or its fallback).
    public var content: String
    /// The content in the card a stack page puts around it.
    public var card: String
    /// How the section's load went.
    public var status: LoadReport.Outcome.Status

    /// Loads `section` (built with the data a test gives it, e.g. a stub
    /// store) with `options`, then renders it.
    public static func render(_ section: SectionController, loading options: LoadOptions = LoadOptions()) async -> RenderedSection {
        let report = await section.loadTree(options)
        var content = HTMLWriter()
        section.renderContent(into: &content)
        let page = StackPageController(id: "page", title: "Page")
        page.addChild(section)
        var card = HTMLWriter()
        page.renderCard(section, into: &card)
        section.removeFromParent()
        return RenderedSection(
            content: content.withBytes { String(decoding: $0, as: UTF8.self) },
            card: card.withBytes { String(decoding: $0, as: UTF8.self) },
            status: report.outcome(of: section.id)?.status ?? .ok)
    }
}
