#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// A calendar date without time or zone, e.g. 2026-11-03.
public struct Day: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A date from its parts, which the caller knows to be a real date; use
    /// `init?(iso:)` for input. Arithmetic may step past year 9999 or before
    /// year 1: such a date prints, and parses back as invalid, but never traps.
    public init(_ year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses exactly `YYYY-MM-DD`; `nil` for any other form or an impossible date (2026-02-30).
    public init?(iso text: String) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard text.utf8.count == 10, parts.count == 3,
            parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            Self.isValid(year, month, day)
        else { return nil }
        self.init(year, month, day)
    }

    /// The first and last dates the pages accept: four-digit years.
    public static let accepted = Day(1, 1, 1)...Day(9999, 12, 31)

    /// Whether the pages accept this date (links lead only to these).
    public var isAccepted: Bool { Self.accepted.contains(self) }

    /// Today in UTC.
    public static func today() -> Day {
        Day(daysSinceEpoch: Int(time(nil)) / 86_400)
    }

    public var description: String {
        // The usual date, ten ASCII bytes, written in place into a small string: joined from
        // pieces, as other dates are below, a date cost 2,000 instructions (a page writes six).
        if (0...9999).contains(year), (0...99).contains(month), (0...99).contains(day) {
            return String(unsafeUninitializedCapacity: 10) { text in
                text[0] = UInt8(ascii: "0") + UInt8(year / 1000)
                text[1] = UInt8(ascii: "0") + UInt8(year / 100 % 10)
                text[2] = UInt8(ascii: "0") + UInt8(year / 10 % 10)
                text[3] = UInt8(ascii: "0") + UInt8(year % 10)
                text[4] = UInt8(ascii: "-")
                text[5] = UInt8(ascii: "0") + UInt8(month / 10)
                text[6] = UInt8(ascii: "0") + UInt8(month % 10)
                text[7] = UInt8(ascii: "-")
                text[8] = UInt8(ascii: "0") + UInt8(day / 10)
                text[9] = UInt8(ascii: "0") + UInt8(day % 10)
                return 10
            }
        }
        let y = String(year.magnitude), m = String(month), d = String(day)
        return (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - y.count)) + y + "-" + (month < 10 ? "0" + m : m) + "-"
            + (day < 10 ? "0" + d : d)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool { lhs.daysSinceEpoch < rhs.daysSinceEpoch }

    /// The date `count` days later (earlier when negative).
    public func adding(days count: Int) -> Day { Day(daysSinceEpoch: daysSinceEpoch + count) }

    /// 0 for Monday … 6 for Sunday.
    public var weekdayIndex: Int { ((daysSinceEpoch % 7) + 7 + 3) % 7 }

    public var weekdayName: String { Self.weekdayNames[weekdayIndex] }

    public var monthName: String { Self.monthNames[month - 1] }

    /// The month's first three letters, e.g. `Nov`.
    public var shortMonthName: String { Self.shortMonthNames[month - 1] }

    private static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    private static let monthNames = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December",
    ]
    private static let shortMonthNames = monthNames.map { String($0.prefix(3)) }

    /// The same day `count` months on (back, when negative), or the month's
    /// last day when it is shorter: January 31 and a month is February 28 or 29.
    public func adding(months count: Int) -> Day {
        let index = year * 12 + (month - 1) + count
        let (newYear, newMonth) = (index / 12, index % 12 + 1)
        var newDay = day
        while newDay > 28, !Self.isValid(newYear, newMonth, newDay) { newDay -= 1 }
        return Day(newYear, newMonth, newDay)
    }

    /// "Tuesday, November 3, 2026".
    public var longDescription: String { "\(weekdayName), \(monthName) \(day), \(year)" }

    static func isValid(_ year: Int, _ month: Int, _ day: Int) -> Bool {
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1 else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    // Days from and to civil dates: Howard Hinnant's algorithms.
    public var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public init(daysSinceEpoch days: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
