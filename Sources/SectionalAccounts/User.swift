/// A user, by the id the database gives them. Every store call names one:
/// there is no way to ask a store for data without saying whose.
public struct UserID: Hashable, Sendable, CustomStringConvertible {
    /// The id as the database stores it.
    public let rawValue: Int

    /// The user whose id is `rawValue`.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// The id in decimal, as logs and live keys name the user.
    public var description: String { String(rawValue) }
}

/// A person who can use the app.
public struct User: Sendable, Equatable {
    /// The database's id for them.
    public var id: UserID
    /// Unique, for signing in.
    public var name: String
    /// As pages greet them.
    public var displayName: String

    /// The user `id`, who signs in as `name` and is greeted as `displayName`.
    public init(id: UserID, name: String, displayName: String) {
        self.id = id
        self.name = name
        self.displayName = displayName
    }
}
