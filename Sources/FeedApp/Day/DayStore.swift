import SectionalAccounts

/// Activity for one day.
public struct DaySummary: Sendable, Equatable {
    public var steps: Int
    public var activeMinutes: Int
    public var calories: Int
}

/// One night's sleep, ending on the morning of the day.
public struct Night: Sendable, Equatable {
    public var bedtimeMinutes: Int
    public var minutesAsleep: Int
    /// 0 to 100.
    public var quality: Int
}

/// The day's workout; `nil` from the store for a rest day.
public struct Workout: Sendable, Equatable {
    public var kind: String
    public var minutes: Int
    /// Kept in whole metres: `4.2` km is 4,200 m exactly.
    public var metres: Int?
    public var note: String

    public var kilometres: Double? { metres.map { Double($0) / 1000 } }
}

/// Where the day page's sections read their data, for one user. A day
/// with nothing recorded reads as `nil`.
public protocol DayStore: Sendable {
    func summary(of user: UserID, on day: Day) async throws -> DaySummary?
    func sleep(of user: UserID, on day: Day) async throws -> Night?
    /// `nil` for a rest day or a day with nothing recorded.
    func workout(of user: UserID, on day: Day) async throws -> Workout?
}
