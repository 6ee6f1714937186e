/// A piece of live data: what a section shows (its `liveKeys`) and what a
/// write changes. An app declares each kind once, and both sides name it
/// the same way:
///
/// ```swift
/// extension LiveKey {
///     static func alerts(of user: UserID) -> LiveKey { LiveKey("alerts", of: user) }
/// }
/// ```
public struct LiveKey: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The key as it is stored and sent between replicas: `alerts:7`.
    public let description: String

    /// The data of kind `kind` that belongs to `owner`: `alerts:7`.
    public init(_ kind: String, of owner: some CustomStringConvertible) { description = kind + ":" + owner.description }

    /// A key as stored or sent between replicas.
    public init(stored: String) { description = stored }

    public init(stringLiteral value: String) { description = value }
}

/// How a live card's change is announced to screen readers
/// (`SectionController.liveAnnouncement`). The card's content may carry a
/// short summary of what it now shows, said after its title
/// (`data-live-summary="2 alerts"` on any element of it).
public enum LiveAnnouncement: String, Sendable {
    /// Said when the reader is idle: "Alerts updated: 2 alerts".
    case polite
    /// Said at once, interrupting.
    case assertive
    /// Not said.
    case off
}
