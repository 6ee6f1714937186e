import Sectional

/// The feed's live data, declared once: sections list these keys, writes record them.
extension LiveKey {
    /// A user's alerts: dismissed, restored.
    static func alerts(of user: UserID) -> LiveKey { LiveKey("alerts", of: user) }
}
