import Sectional
import SectionalAccounts

/// The night before the day: time asleep, bedtime, quality.
final class SleepSection: DayRecordSection<Night>, CatalogSection {
    static let id: SectionID = "sleep"
    static let title = "Sleep"

    init(store: any DayStore, user: UserID, date: Day) {
        super.init(
            id: Self.id, title: Self.title, store: store, user: user, date: date, read: { try await $0.sleep(of: $1, on: $2) })
    }

    override func render(into html: inout HTMLWriter) {
        guard let night = record else {
            p(.class("quiet")) { "No sleep recorded for this night." }.render(into: &html)
            return
        }
        let bedtime = (night.bedtimeMinutes + 24 * 60) % (24 * 60)
        dl(.class("stats")) {
            dt { "Asleep" }; dd { "\(night.minutesAsleep / 60) h \(night.minutesAsleep % 60) min" }
            dt { "Bedtime" }; dd { clock(bedtime) }
            dt { "Quality" }; dd { "\(night.quality) / 100" }
        }.render(into: &html)
    }

    private func clock(_ minutes: Int) -> String {
        let hour = minutes / 60, minute = minutes % 60
        return (hour < 10 ? "0" : "") + String(hour) + (minute < 10 ? ":0" : ":") + String(minute)
    }
}
