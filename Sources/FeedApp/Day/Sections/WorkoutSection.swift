import Sectional
import SectionalAccounts

/// The day's workout, or a rest day.
final class WorkoutSection: DayRecordSection<Workout>, CatalogSection {
    static let id: SectionID = "workout"
    static let title = "Workout"

    init(store: any DayStore, user: UserID, date: Day) {
        super.init(
            id: Self.id, title: Self.title, store: store, user: user, date: date, read: { try await $0.workout(of: $1, on: $2) })
    }

    override func render(into html: inout HTMLWriter) {
        guard let workout = record else {
            p(.class("quiet")) { "Rest day: no workout recorded." }.render(into: &html)
            return
        }
        dl(.class("stats")) {
            dt { "Workout" }; dd { workout.kind }
            dt { "Duration" }; dd { "\(workout.minutes) min" }
            if let kilometres = workout.kilometres {
                dt { "Distance" }; dd { "\((kilometres * 10).rounded() / 10) km" }
            }
        }.render(into: &html)
        p(.class("note")) { workout.note }.render(into: &html)
    }
}
