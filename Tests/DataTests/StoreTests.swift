import Sectional
import SectionalAccounts
import SectionalSecurity
import SectionalServer
import Testing

@testable import FeedApp

@Suite("The stores, on every engine", .timeLimit(.minutes(1)))
struct StoreTests {
    let alex = UserID(1)
    let sam = UserID(2)

    @Test("Each user reads their own seeded data, names that need escaping intact", arguments: Engine.allCases)
    func seededData(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            #expect(data.users.map(\.name) == SeedData.users.map(\.name))
            #expect(data.users.map(\.id) == [alex, sam])
            for (user, seed) in zip([alex, sam], SeedData.users) {
                #expect(try await data.feed.accounts(of: user) == seed.accounts)
                let alerts = try await data.feed.alerts(of: user)
                #expect(alerts.map(\.title) == seed.alerts.map(\.title))
                #expect(alerts.allSatisfy { !$0.isDismissed })
                #expect(try await data.feed.creditScore(of: user) == CreditScore(score: seed.creditHistory.last!, history: seed.creditHistory))
                #expect(try await data.feed.recentTransactions(of: user, limit: 2) == Array(seed.transactions.prefix(2)))
            }
            #expect(try await data.feed.recentTransactions(of: alex, limit: 2).contains { $0.merchant == "Tom & Jerry's Electronics" })
            #expect(try await data.feed.accounts(of: UserID(999)).isEmpty)
        }
    }

    @Test("Day data is the seed's inside its years and nothing outside them", arguments: Engine.allCases)
    func dayData(engine: Engine) async throws {
        let (alexSeed, samSeed) = (SeedData.users[0], SeedData.users[1])
        try await TestDatabase.withData(engine) { data, _ in
            for day in [Day(2026, 1, 1), Day(2026, 11, 3), Day(2027, 12, 31)] {
                let (summary, sleep, workout) = (
                    SeedData.summary(for: alexSeed, on: day), SeedData.sleep(for: samSeed, on: day), SeedData.workout(for: alexSeed, on: day)
                )
                #expect(try await data.day.summary(of: alex, on: day) == summary)
                #expect(try await data.day.sleep(of: sam, on: day) == sleep)
                #expect(try await data.day.workout(of: alex, on: day) == workout)
                #expect(try await data.day.summary(of: alex, on: day) != nil)
            }
            let samsDay = try await data.day.summary(of: sam, on: Day(2026, 11, 3))
            #expect(try await data.day.summary(of: alex, on: Day(2026, 11, 3)) != samsDay)
            #expect(try await data.day.summary(of: alex, on: Day(2025, 12, 31)) == nil)
            #expect(try await data.day.sleep(of: alex, on: Day(2028, 1, 1)) == nil)
        }
    }

    @Test(
        "Dismissing is scoped by user: twice is a no-op, another user's alert is refused; each change is recorded for open pages",
        arguments: Engine.allCases)
    func dismissAndRestore(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            let own = try await data.feed.alerts(of: alex)[1]
            let theirs = try await data.feed.alerts(of: sam)[0]
            let stored = { (user: UserID) in
                try await data.pool!.run { db in try LiveVersions.change(of: .alerts(of: user), in: db) }
            }
            let before = try await stored(alex), samsBefore = try await stored(sam)
            let dismissed = try #require(try await data.feed.dismissAlert(own.id, of: alex))
            #expect(dismissed.key == .alerts(of: alex) && dismissed.version > before.version)
            let storedAfterDismissal = try await stored(alex)
            #expect(dismissed == storedAfterDismissal, "the change announced is the one stored")
            #expect(try await data.feed.dismissAlert(own.id, of: alex) != nil, "dismissing again is a no-op, not an error")
            #expect(try await data.feed.dismissAlert(theirs.id, of: alex) == nil)
            #expect(try await data.feed.dismissAlert(987_654, of: alex) == nil)
            #expect(try await data.feed.alerts(of: alex).filter(\.isDismissed).map(\.id) == [own.id])
            #expect(try await data.feed.alerts(of: sam).allSatisfy { !$0.isDismissed })

            #expect(try await data.feed.restoreAlerts(of: sam) == nil, "nothing to restore, nothing to announce")
            #expect(try await data.feed.alerts(of: alex).filter(\.isDismissed).count == 1)
            let restored = try #require(try await data.feed.restoreAlerts(of: alex))
            let storedAfterRestoring = try await stored(alex), samsAfter = try await stored(sam)
            #expect(restored.version > dismissed.version && restored == storedAfterRestoring)
            #expect(samsAfter == samsBefore, "sam's alerts kept their version")
            #expect(try await data.feed.alerts(of: alex).allSatisfy { !$0.isDismissed })
        }
    }

    @Test("A saved layout is the user's alone; saving again replaces it; reset removes it", arguments: Engine.allCases)
    func layouts(engine: Engine) async throws {
        try await TestDatabase.withData(engine) { data, _ in
            #expect(try await data.layouts.savedLayout(of: alex, page: "feed").sections == nil)
            _ = try await data.layouts.saveLayout(["credit-score", "balances"], of: alex, page: "feed")
            _ = try await data.layouts.saveLayout(["alerts"], of: alex, page: "feed")
            #expect(try await data.layouts.savedLayout(of: alex, page: "feed").sections == ["alerts"])
            #expect(try await data.layouts.savedLayout(of: sam, page: "feed").sections == nil)
            #expect(try await data.layouts.savedLayout(of: alex, page: "day").sections == nil)
            #expect(try await data.layouts.resetLayout(of: sam, page: "feed") == nil)
            #expect(try await data.layouts.resetLayout(of: alex, page: "feed") != nil)
            #expect(try await data.layouts.resetLayout(of: alex, page: "feed") == nil)
            #expect(try await data.layouts.savedLayout(of: alex, page: "feed").sections == nil)
        }
    }

    @Test("Writes outlive the server: reopened, the database keeps them and is not seeded twice", arguments: Engine.sql)
    func reopen(engine: Engine) async throws {
        let location = try await TestDatabase.newLocation(engine)
        let first = try await AppData.open(location, connections: 1, hasher: PasswordHasher(.minimal))
        let alert = try await first.feed.alerts(of: alex)[0]
        #expect(try await first.feed.dismissAlert(alert.id, of: alex) != nil)
        _ = try await first.layouts.saveLayout(["alerts"], of: alex, page: "feed")
        first.pool?.close()

        let second = try await AppData.open(location, connections: 1, hasher: PasswordHasher(.minimal))
        defer { second.pool?.close() }
        #expect(second.users.count == SeedData.users.count)
        #expect(second.formKey == first.formKey, "form tokens must stay valid across restarts and replicas")
        #expect(try await second.feed.alerts(of: alex).filter(\.isDismissed).map(\.id) == [alert.id])
        #expect(try await second.layouts.savedLayout(of: alex, page: "feed").sections == ["alerts"])
    }

    @Test("With --no-seed a new database stays empty", arguments: Engine.sql)
    func noSeed(engine: Engine) async throws {
        try await TestDatabase.withData(engine, seed: false) { data, _ in
            let alerts = try await data.feed.alerts(of: alex)
            #expect(data.users.isEmpty)
            #expect(alerts.isEmpty)
        }
    }

    @Test("Bad locations are one-line problems at start")
    func badLocations() async throws {
        await #expect(throws: DatabaseProblem.self) {
            try await AppData.open(.sqlite(path: "/proc/self/nope/db.sqlite"), connections: 1, hasher: PasswordHasher(.minimal))
        }
        let unreachable = await #expect(throws: DatabaseProblem.self) {
            try await AppData.open(.postgres(url: "postgres://app@127.0.0.1:1/feed"), connections: 1, hasher: PasswordHasher(.minimal))
        }
        #expect(unreachable?.description.contains("\n") == false)
        #expect(unreachable?.description.contains("127.0.0.1") == true)
    }
}
