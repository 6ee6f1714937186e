/// The demo data a new database starts with (unless `--no-seed`), and
/// what `--database memory:` serves: the same for every run but for its
/// dates, which are relative to the day it is seeded (a payment due
/// tomorrow is due tomorrow), with names a person would believe (the
/// escaping of names with markup in them is the tests' to show).
public struct SeedUser: Sendable {
    public var name: String
    public var displayName: String
    /// Documented in the README: the demo is for trying, not for keeping secrets.
    public var password: String
    public var accounts: [Account]
    /// Title, text and severity; ids come from the database.
    public var alerts: [(severity: FeedAlert.Severity, title: String, text: String)]
    public var creditHistory: [Int]
    public var transactions: [Transaction]
    /// Varies each user's day data.
    var daySeed: UInt64
}

public enum SeedData {
    /// The day the data is made: its dates count from it.
    static let seededOn = Day.today()

    /// `days` before the day the data is made.
    private static func daysAgo(_ days: Int) -> Day { seededOn.adding(days: -days) }

    /// `Dec 6`, for the day after the data is made.
    private static var tomorrow: String {
        let day = seededOn.adding(days: 1)
        return day.shortMonthName + " " + String(day.day)
    }

    /// Pages show the first of them until sign-in exists.
    public static let users: [SeedUser] = [
        SeedUser(
            name: "alex", displayName: "Alex O'Brien", password: "alex-demo-1",
            accounts: [
                Account(name: "Everyday Checking", lastDigits: "4821", balance: Money(cents: 2_384_512)),
                Account(name: "High-Yield Savings", lastDigits: "0937", balance: Money(cents: 1_250_000)),
                Account(name: "Travel Rewards Visa", lastDigits: "5510", balance: Money(cents: -184_233)),
                Account(name: "Joint Household", lastDigits: "7702", balance: Money(cents: 640_015)),
            ],
            alerts: [
                (.info, "Statement ready", "Your \(seededOn.adding(months: -1).monthName) statement for Everyday Checking is available."),
                (.critical, "Payment due tomorrow", "Travel Rewards Visa: minimum payment of $35.00 is due on \(tomorrow)."),
                (.warning, "Large purchase", "A $1,249.00 charge at Tom & Jerry's Electronics was approved."),
            ],
            creditHistory: [688, 694, 701, 699, 707, 715, 712, 720, 726, 731, 738, 742],
            transactions: [
                Transaction(date: daysAgo(1), merchant: "Blue Bottle Coffee", amount: Money(cents: -675)),
                Transaction(date: daysAgo(1), merchant: "Tom & Jerry's Electronics", amount: Money(cents: -124_900)),
                Transaction(date: daysAgo(2), merchant: "Payroll — Acme Corp", amount: Money(cents: 412_500)),
                Transaction(date: daysAgo(3), merchant: "Whole Foods Market", amount: Money(cents: -8_742)),
                Transaction(date: daysAgo(4), merchant: "City Transit", amount: Money(cents: -275)),
                Transaction(date: daysAgo(5), merchant: "Corner Bookshop", amount: Money(cents: -2_399)),
            ],
            daySeed: 0),
        SeedUser(
            name: "sam", displayName: "Sam Lee", password: "sam-demo-2",
            accounts: [
                Account(name: "Student Checking", lastDigits: "1204", balance: Money(cents: 31_245)),
                Account(name: "Rainy-Day Savings", lastDigits: "8830", balance: Money(cents: 402_000)),
            ],
            alerts: [
                (.warning, "Low balance", "Student Checking is below $500.00 & falling."),
                (.info, "New payee \"Landlord\"", "A payee was added from a new device."),
            ],
            creditHistory: [612, 618, 615, 623, 630, 628, 641, 648, 652, 660, 667, 671],
            transactions: [
                Transaction(date: daysAgo(1), merchant: "Campus Books", amount: Money(cents: -5_620)),
                Transaction(date: daysAgo(3), merchant: "Rent & Utilities", amount: Money(cents: -95_000)),
                Transaction(date: daysAgo(5), merchant: "Café Wages", amount: Money(cents: 61_200)),
            ],
            daySeed: 11),
    ]

    /// The bank's notices, oldest first.
    public static let notices = [
        Notice(
            title: "Instant transfers", text: "Moving money between your own accounts now arrives at once, any day of the week.",
            date: Day(2026, 11, 24)),
        Notice(
            title: "Scheduled maintenance", text: "The app may be slow on Sunday, December 13, between 2:00 and 4:00 a.m.",
            date: Day(2026, 12, 1)),
    ]

    /// The days with seeded activity: 2026 and 2027.
    public static let days = Day(2026, 1, 1)...Day(2027, 12, 31)

    static func summary(for user: SeedUser, on day: Day) -> DaySummary? {
        guard days.contains(day) else { return nil }
        var random = DemoRandom(seed: (UInt64(bitPattern: Int64(day.daysSinceEpoch)) &+ user.daySeed) &* 3)
        let steps = random.next(in: 2_400...16_800)
        return DaySummary(steps: steps, activeMinutes: steps / 180 + random.next(in: 0...25), calories: 1_700 + steps / 22)
    }

    static func sleep(for user: SeedUser, on day: Day) -> Night? {
        guard days.contains(day) else { return nil }
        var random = DemoRandom(seed: (UInt64(bitPattern: Int64(day.daysSinceEpoch)) &+ user.daySeed) &* 5)
        return Night(
            bedtimeMinutes: 22 * 60 + random.next(in: -40...95), minutesAsleep: random.next(in: 330...500),
            quality: random.next(in: 48...97))
    }

    static func workout(for user: SeedUser, on day: Day) -> Workout? {
        guard days.contains(day) else { return nil }
        var random = DemoRandom(seed: (UInt64(bitPattern: Int64(day.daysSinceEpoch)) &+ user.daySeed) &* 7)
        switch random.next(in: 0...4) {
        case 0: return nil
        case 1:
            return Workout(
                kind: "Run", minutes: random.next(in: 24...70), metres: random.next(in: 40...140) * 100,
                note: "Easy pace along the river & back")
        case 2:
            return Workout(
                kind: "Cycling", minutes: random.next(in: 35...120), metres: random.next(in: 120...450) * 100, note: "Hill repeats <3 sets>")
        case 3: return Workout(kind: "Strength", minutes: random.next(in: 30...60), metres: nil, note: "Squats, rows and \"farmer's\" carries")
        default: return Workout(kind: "Yoga", minutes: random.next(in: 20...50), metres: nil, note: "Mobility flow")
        }
    }
}
