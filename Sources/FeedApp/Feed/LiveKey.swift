/// The keys of the feed's live data: a write publishes the key of what it changed.
enum LiveKey {
    static func alerts(of user: UserID) -> String { "alerts:\(user)" }
}
