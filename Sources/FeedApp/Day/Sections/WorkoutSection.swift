import Sectional

/// The day's workout, or a rest day.
final class WorkoutSection: SectionController, CatalogSection, DaySection {
    static let id: SectionID = "workout"
    static let title = "Workout"
    private let store: any DayStore
    private let user: UserID
    var date: Day
    private var workout: Workout?

    init(store: any DayStore, user: UserID, date: Day) {
        self.store = store
        self.user = user
        self.date = date
        super.init(id: Self.id, title: Self.title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store, user, date] in try await store.workout(of: user, on: date) }) { self.workout = $0 }
    }

    override func render(into html: inout HTMLWriter) {
        guard let workout else {
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
