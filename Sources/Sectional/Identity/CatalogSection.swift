/// A section type a page's catalog lists: its id and title belong to the
/// type, so they are written once and every instance carries them.
///
/// ```swift
/// final class AlertsSection: SectionController, CatalogSection {
///     static let id: SectionID = "alerts"
///     static let title = "Alerts"
///
///     init(store: any FeedStore) {
///         self.store = store
///         super.init(id: Self.id, title: Self.title)
///     }
/// }
/// ```
public protocol CatalogSection: SectionController {
    /// The id every instance has.
    static var id: SectionID { get }
    /// The title every instance starts with.
    static var title: String { get }
}
