import Testing

@testable import SectionalServer

@Suite("The live hub")
struct LiveHubTests {
    @Test("A publish reaches the streams watching its key, with a version that grows, and no other")
    func publish() async throws {
        let hub = LiveHub()
        let alerts = try #require(hub.subscribe(to: ["alerts:1"], user: "1", session: "s"))
        let other = try #require(hub.subscribe(to: ["alerts:2"], user: "2", session: "t"))
        hub.publish("alerts:1")
        hub.publish("alerts:1")
        alerts.end()
        other.end()
        var received: [LiveHub.Change] = []
        for await change in alerts.changes { received.append(change) }
        #expect(received == [.init(key: "alerts:1", version: 1), .init(key: "alerts:1", version: 2)])
        var nothing = 0
        for await _ in other.changes { nothing += 1 }
        #expect(nothing == 0)
        #expect(hub.version(of: "alerts:1") == 2)
    }

    @Test("A stream watching several keys hears each of them, in order; one watching another key of theirs hears only its own")
    func severalKeys() async throws {
        let hub = LiveHub()
        let page = try #require(hub.subscribe(to: ["alerts:1", "accounts:1"], user: "1", session: "s"))
        let accounts = try #require(hub.subscribe(to: ["accounts:1"], user: "1", session: "t"))
        hub.publish("alerts:1")
        hub.publish("accounts:1")
        hub.publish("alerts:2")
        page.end()
        accounts.end()
        var heard: [LiveHub.Change] = []
        for await change in page.changes { heard.append(change) }
        #expect(heard == [.init(key: "alerts:1", version: 1), .init(key: "accounts:1", version: 1)])
        var heardByAccounts: [LiveHub.Change] = []
        for await change in accounts.changes { heardByAccounts.append(change) }
        #expect(heardByAccounts == [.init(key: "accounts:1", version: 1)])
    }

    @Test("A stream that leaves, by ending, by eviction past its user's limit or by signing out, leaves no watcher of its keys")
    func leavingStreamsLeaveNoWatchers() async throws {
        let hub = LiveHub(limitPerUser: 2, limitTotal: 10)
        let ended = try #require(hub.subscribe(to: ["alerts:1", "accounts:1"], user: "1", session: "s"))
        #expect(hub.watchers(of: "alerts:1") == 1 && hub.watchers(of: "accounts:1") == 1)
        ended.end()
        for await _ in ended.changes {}
        #expect(hub.watchers(of: "alerts:1") == 0 && hub.watchers(of: "accounts:1") == 0)

        let oldest = try #require(hub.subscribe(to: ["alerts:1"], user: "1", session: "s"))
        let second = try #require(hub.subscribe(to: ["alerts:1"], user: "1", session: "t"))
        let third = try #require(hub.subscribe(to: ["alerts:1"], user: "1", session: "t"))
        for await _ in oldest.changes {}  // evicted by the third
        #expect(hub.watchers(of: "alerts:1") == 2)
        hub.closeSession("t")
        for await _ in second.changes {}
        for await _ in third.changes {}
        #expect(hub.watchers(of: "alerts:1") == 0)
        #expect(hub.openStreams == 0)
    }

    @Test("A slow stream keeps the newest changes, not a backlog")
    func boundedQueue() async throws {
        let hub = LiveHub()
        let slow = try #require(hub.subscribe(to: ["k"], user: "1", session: nil))
        for _ in 0..<100 { hub.publish("k") }
        slow.end()
        var versions: [Int] = []
        for await change in slow.changes { versions.append(change.version) }
        #expect(versions.count <= 16)
        #expect(versions.last == 100)
    }

    @Test("A stream that ends, or whose task is cancelled, leaves the hub")
    func unsubscribe() async throws {
        let hub = LiveHub()
        let ended = try #require(hub.subscribe(to: ["k"], user: "1", session: nil))
        ended.end()
        let watched = try #require(hub.subscribe(to: ["k"], user: "1", session: nil))
        let reader = Task { for await _ in watched.changes {} }
        #expect(hub.openStreams >= 1)
        reader.cancel()
        await reader.value
        for _ in 0..<100 where hub.openStreams > 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(hub.openStreams == 0)
    }

    @Test("A reader cancelled before it reads gets nothing queued and ends at once; its stream leaves the hub", .timeLimit(.minutes(1)))
    func cancelledBeforeReading() async throws {
        let hub = LiveHub()
        let watched = try #require(hub.subscribe(to: ["k"], user: "1", session: nil))
        hub.publish("k")
        let reader = Task { () -> Int in
            withUnsafeCurrentTask { $0?.cancel() }
            var read = 0
            for await _ in watched.changes { read += 1 }
            return read
        }
        #expect(await reader.value == 0)
        #expect(hub.openStreams == 0)
    }

    @Test("Past a user's limit their oldest stream ends; past the total, new streams are refused")
    func limits() async throws {
        let hub = LiveHub(limitPerUser: 2, limitTotal: 3)
        let oldest = try #require(hub.subscribe(to: ["k"], user: "a", session: nil))
        let kept = hub.subscribe(to: ["k"], user: "a", session: nil)
        let newest = hub.subscribe(to: ["k"], user: "a", session: nil)
        #expect(kept != nil && newest != nil)
        var told: [LiveHub.Change] = []
        for await change in oldest.changes { told.append(change) }  // ended by the third
        #expect(told == [.init(key: LiveHub.endKey, version: 0)], "told it was replaced, so the page does not reconnect")
        let other = hub.subscribe(to: ["k"], user: "b", session: nil)
        #expect(other != nil)
        #expect(hub.subscribe(to: ["k"], user: "c", session: nil) == nil, "a fourth in all")
        withExtendedLifetime((kept, newest, other)) {}
    }

    @Test("Signing out ends that session's streams only; closing the hub ends all and takes no more")
    func closing() async throws {
        let hub = LiveHub()
        let mine = try #require(hub.subscribe(to: ["k"], user: "1", session: "mine"))
        let theirs = try #require(hub.subscribe(to: ["k"], user: "1", session: "theirs"))
        hub.closeSession("mine")
        for await _ in mine.changes {}  // ends
        hub.publish("k")
        hub.closeAll()
        var got = 0
        for await _ in theirs.changes { got += 1 }
        #expect(got == 1)
        #expect(hub.subscribe(to: ["k"], user: "2", session: nil) == nil)
    }

    @Test("Another replica's change counts only when newer than what this one knows")
    func received() async throws {
        let hub = LiveHub()
        let stream = try #require(hub.subscribe(to: ["k"], user: "1", session: nil))
        hub.received("k", version: 5)
        hub.received("k", version: 3)
        hub.publish("k")
        stream.end()
        var versions: [Int] = []
        for await change in stream.changes { versions.append(change.version) }
        #expect(versions == [5, 6])
    }
}
