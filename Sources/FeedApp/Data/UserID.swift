/// A user, by the id the database gives them. Every store call names one:
/// there is no way to ask a store for data without saying whose.
public struct UserID: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: Int

    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public var description: String { String(rawValue) }
}

/// A person who can use the app.
public struct User: Sendable, Equatable {
    public var id: UserID
    /// Unique, for signing in.
    public var name: String
    /// As pages greet them.
    public var displayName: String
}
