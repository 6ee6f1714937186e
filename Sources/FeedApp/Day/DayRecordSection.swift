import Sectional
import SectionalAccounts

/// A day section that shows one record of the date from the store, read for
/// the signed-in user: the summary, the night's sleep, the workout. A
/// subclass says how to read it and renders `record` (`nil`: nothing recorded).
class DayRecordSection<Record: Sendable>: SectionController, DaySection {
    typealias Read = @Sendable (_ store: any DayStore, _ user: UserID, _ day: Day) async throws -> Record?

    private let store: any DayStore
    private let user: UserID
    private let read: Read
    var date: Day
    /// The date's record once loaded; `nil` when nothing was recorded.
    private(set) var record: Record?

    init(
        id: SectionID, title: String, store: any DayStore, user: UserID, date: Day, read: @escaping Read
    ) {
        self.store = store
        self.user = user
        self.read = read
        self.date = date
        super.init(id: id, title: title)
    }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ [store, user, date, read] in try await read(store, user, date) }) { self.record = $0 }
    }
}
