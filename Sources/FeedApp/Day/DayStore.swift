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
    public var kilometres: Double?
    public var note: String
}

/// Where the day page's sections read their data.
public protocol DayStore: Sendable {
    func summary(on day: Day) async throws -> DaySummary
    func sleep(on day: Day) async throws -> Night
    func workout(on day: Day) async throws -> Workout?
}

/// Demo data, different for each date and the same for a date every time.
public struct DemoDayStore: DayStore {
    public init() {}

    public func summary(on day: Day) async throws -> DaySummary {
        var random = DemoRandom(seed: UInt64(bitPattern: Int64(day.daysSinceEpoch)) &* 3)
        let steps = random.next(in: 2_400...16_800)
        return DaySummary(steps: steps, activeMinutes: steps / 180 + random.next(in: 0...25), calories: 1_700 + steps / 22)
    }

    public func sleep(on day: Day) async throws -> Night {
        var random = DemoRandom(seed: UInt64(bitPattern: Int64(day.daysSinceEpoch)) &* 5)
        return Night(
            bedtimeMinutes: 22 * 60 + random.next(in: -40...95), minutesAsleep: random.next(in: 330...500),
            quality: random.next(in: 48...97))
    }

    public func workout(on day: Day) async throws -> Workout? {
        var random = DemoRandom(seed: UInt64(bitPattern: Int64(day.daysSinceEpoch)) &* 7)
        switch random.next(in: 0...4) {
        case 0: return nil
        case 1:
            return Workout(
                kind: "Run", minutes: random.next(in: 24...70), kilometres: Double(random.next(in: 40...140)) / 10,
                note: "Easy pace along the river & back")
        case 2:
            return Workout(
                kind: "Cycling", minutes: random.next(in: 35...120), kilometres: Double(random.next(in: 120...450)) / 10,
                note: "Hill repeats <3 sets>")
        case 3: return Workout(kind: "Strength", minutes: random.next(in: 30...60), kilometres: nil, note: "Squats, rows and \"farmer's\" carries")
        default: return Workout(kind: "Yoga", minutes: random.next(in: 20...50), kilometres: nil, note: "Mobility flow")
        }
    }
}
