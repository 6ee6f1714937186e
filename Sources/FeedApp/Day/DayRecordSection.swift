import Sectional

/// A day section that shows one record of the date from the store, read for
/// the signed-in user: the summary, the night's sleep, the workout. A
/// subclass says how to read it and renders `record` (`nil`: nothing recorded).
class DayRecordSection<Record: Sendable>: SectionController, DaySection {
    typealias Read = @Sendable (_ store: any DayStore, _ user: UserID, _ day: Day) async throws -> Record?
    /// The same read of a store in memory, which answers at once.
    typealias ReadAtHand = @Sendable (_ store: any ImmediateDayReads, _ user: UserID, _ day: Day) throws -> Record?

    private let store: any DayStore
    private let user: UserID
    private let read: Read
    private let readAtHand: ReadAtHand
    var date: Day
    /// The date's record once loaded; `nil` when nothing was recorded.
    private(set) var record: Record?

    init(
        id: SectionID, title: String, store: any DayStore, user: UserID, date: Day, atHand readAtHand: @escaping ReadAtHand,
        waiting read: @escaping Read
    ) {
        self.store = store
        self.user = user
        self.read = read
        self.readAtHand = readAtHand
        self.date = date
        super.init(id: id, title: title)
    }

    override func makeLoad() -> SectionLoad? {
        if let memory = store.immediateDayReads {
            return SectionLoad(atHand: { [user, date, readAtHand] in try readAtHand(memory, user, date) }) { self.record = $0 }
        }
        return SectionLoad({ [store, user, date, read] in try await read(store, user, date) }) { self.record = $0 }
    }
}
