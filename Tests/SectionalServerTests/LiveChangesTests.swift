import SectionalTesting
import Synchronization
import Testing

@testable import SectionalServer

@Suite("A live stream's queue served without a task of its own")
struct LiveChangesTests {
    @Test("Each change is handled once and in order, at once where it can be and in a task where it must wait; the end runs once, after the last")
    func servedInOrder() async {
        let changes = LiveChanges(keepingNewest: 16)
        let handled = Mutex<[Int]>([]), quickly = Mutex<[Int]>([]), ends = Mutex(0)
        let gates = (0...24).map { _ in Gate() }
        let ended = Gate()
        changes.serve(
            quickly: { change in
                // Odd versions must wait for something: the task gets them.
                guard change.version % 2 == 0 else { return nil }
                quickly.withLock { $0.append(change.version) }
                handled.withLock { $0.append(change.version) }
                gates[change.version].open()
                return true
            },
            { change in
                await Task.yield()
                handled.withLock { $0.append(change.version) }
                gates[change.version].open()
                return true
            },
            atEnd: {
                ends.withLock { $0 += 1 }
                ended.open()
            })
        // One at a time, each handled before the next: the even ones, finding the queue idle, at once.
        for version in 1...12 {
            changes.yield(LiveHub.Change(key: "k", version: version))
            await gates[version].wait()
        }
        #expect(quickly.withLock { $0 } == [2, 4, 6, 8, 10, 12])
        // A burst: queued behind the first that must wait, and handed on in order.
        for version in 13...24 { changes.yield(LiveHub.Change(key: "k", version: version)) }
        changes.finish()
        await ended.wait()
        #expect(handled.withLock { $0 } == Array(1...24))
        #expect(ends.withLock { $0 } == 1)
    }

    @Test("A change handled at once needs no task: with the queue idle, it is handled before yield returns")
    func handledOnTheYieldingThread() {
        let changes = LiveChanges(keepingNewest: 16)
        let handled = Mutex<[Int]>([])
        changes.serve(
            quickly: { change in
                handled.withLock { $0.append(change.version) }
                return true
            }, { _ in true }, atEnd: {})
        changes.yield(LiveHub.Change(key: "k", version: 1))
        changes.yield(LiveHub.Change(key: "k", version: 2))
        #expect(handled.withLock { $0 } == [1, 2])
    }

    @Test("A reader that returns false ends the queue: nothing after is handled, and the end runs")
    func falseEnds() async {
        let changes = LiveChanges(keepingNewest: 16)
        let handled = Mutex<[Int]>([])
        let ended = Gate()
        changes.serve(
            quickly: { change in
                handled.withLock { $0.append(change.version) }
                return change.version < 2
            }, { _ in true }, atEnd: { ended.open() })
        for version in 1...4 { changes.yield(LiveHub.Change(key: "k", version: version)) }
        await ended.wait()
        #expect(handled.withLock { $0 } == [1, 2])
    }

    @Test("Cancelled, a queue drops what waits and cancels the change being handled; the end runs")
    func cancelStopsTheHandling() async {
        let changes = LiveChanges(keepingNewest: 16)
        let started = Gate(), ended = Gate()
        let sawCancellation = Mutex(false)
        changes.serve(
            quickly: { _ in nil },
            { _ in
                started.open()
                // Waits until cancelled: a render for a client that left.
                while !Task.isCancelled { await Task.yield() }
                sawCancellation.withLock { $0 = true }
                return true
            }, atEnd: { ended.open() })
        changes.yield(LiveHub.Change(key: "k", version: 1))
        changes.yield(LiveHub.Change(key: "k", version: 2))
        await started.wait()
        changes.cancel()
        await ended.wait()
        #expect(sawCancellation.withLock { $0 })
    }
}
