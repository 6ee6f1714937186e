import Sectional
import Synchronization
import Testing

@testable import SectionalServer

@Suite("Renders of one card at one moment, made one")
struct RenderGateTests {
    /// Renders that ran.
    private final class Renders: Sendable {
        private let count = Atomic(0)
        func add() { count.add(1, ordering: .relaxed) }
        var value: Int { count.load(ordering: .relaxed) }
    }

    @Test("While a render runs, others of the same key wait for it and do not render; another key renders at once")
    func oneRenderAtATime() async {
        let gate = RenderGate()
        let renders = Renders()
        let (started, startedSignal) = AsyncStream<Void>.makeStream()
        let (release, releaseSignal) = AsyncStream<Void>.makeStream()
        let first = Task {
            await gate.once("alerts:3") {
                renders.add()
                startedSignal.yield()
                for await _ in release { break }  // held until the others wait
            }
        }
        for await _ in started { break }
        let others = (0..<20).map { _ in Task { await gate.once("alerts:3") { renders.add() } } }
        while gate.waiters(for: "alerts:3") < 20 { await Task.yield() }
        #expect(await gate.once("balances:1") { renders.add() }, "another card is not held back")
        #expect(renders.value == 2, "the first render and the other card's, no more")
        releaseSignal.yield()
        #expect(await first.value)
        for other in others { #expect(await !other.value, "it waited, and took what the first kept") }
        #expect(renders.value == 2)
        #expect(await gate.once("alerts:3") { renders.add() }, "once done, the key renders again")
        #expect(renders.value == 3)
    }
}

@Suite("A card as a server-sent event")
struct LiveEventTests {
    private func event(_ card: String) -> String {
        var html = HTMLWriter()
        html.writeRaw(card)
        return String(decoding: LiveStream<NotesPage>.Stream.event(id: "alerts=2", card: html), as: UTF8.self)
    }

    @Test("Every CR, LF or CRLF in a card starts a data line of its own; the event ends with a blank line")
    func lines() {
        #expect(event("<p>one</p>") == "event: section\nid: alerts=2\ndata: <p>one</p>\n\n")
        #expect(event("a\nb\r\nc\rd") == "event: section\nid: alerts=2\ndata: a\ndata: b\ndata: c\ndata: d\n\n")
        #expect(event("a\n\nb\r\n") == "event: section\nid: alerts=2\ndata: a\ndata: \ndata: b\ndata: \n\n")
        #expect(event("") == "event: section\nid: alerts=2\ndata: \n\n")
    }
}
