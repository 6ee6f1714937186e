import HTTPServer
import Sectional

/// `GET /NAME/live?…`: the page's live sections as server-sent events. Each
/// event is one section's card, re-rendered for the stream's own visitor
/// when its data changed; its id lists the versions the stream has sent
/// (`alerts=3`), so that a reconnect (`Last-Event-ID`) gets only what changed.
struct LiveStream<Page: ComposedPage>: Sendable {
    /// The page's routes, whose composition and controller tree the stream reuses.
    let routes: PageRoutes<Page>
    let hub: LiveHub
    private var page: Page { routes.page }
    /// Below any proxy's read timeout (nginx: 60 s by default).
    static var heartbeat: Duration { .seconds(15) }
    /// Heartbeats a client may let pass taking none of the bytes waiting for it.
    static var stalledBeats: Int { 2 }

    func open(_ request: Request) async throws(HTTPError) -> Response {
        var made = AnswerMaking(credential: nil)
        let (context, plan) = try await routes.compose(request, for: .script, made: &made)
        let visit = made.visit
        let controller = routes.makePage(plan: plan, context: context)
        let live = controller.children.filter { !$0.liveKeys.isEmpty }
        guard !live.isEmpty else { throw HTTPError(.notFound, "This composition of the \(page.name) has no live section.") }
        let keys = live.map { (id: $0.id, keys: $0.liveKeys) }
        // One limit per signed-in user; on a public page, per address for those signed in as nobody.
        let user = visit.name ?? "address " + (request.clientAddress ?? "unknown")
        guard let subscription = hub.subscribe(to: Set(keys.flatMap(\.keys)), user: user, session: visit.session) else {
            // Stopping: a 503, which a proxy retries on another replica; full: a 429. Either closes the
            // connection: a client refused a stream comes back later, and its idle connection would hold
            // one of the places kept for pages meanwhile.
            if hub.isClosed {
                throw HTTPError(.serviceUnavailable, "This replica is stopping.", headers: ["Retry-After": "1", "Connection": "close"])
            }
            throw HTTPError(
                .tooManyRequests, "Too many live pages are open; close some, or reload later.",
                headers: ["Retry-After": "10", "Connection": "close"])
        }
        hub.keepBeating(every: Self.heartbeat, on: routes.site.settings.clock)
        // The browser's own reconnect sends the header; a stream the page script opens anew, the query item.
        let sent = Self.versions(in: request.headers["Last-Event-ID"] ?? request.queryValue("lastEventId"))
        // What finds each kept card's event made by another stream, from the first change on.
        let address = controller.address?.url(for: plan) ?? ""
        let cards = live.map { section in section.cacheKey.map { routes.liveCard(section.id, $0, section.liveKeys, address) } }
        // Kept for the session checks for as long as the page stays open: its fields in no more room than they take.
        var kept = request
        kept.headers = request.headers.compacted()
        let stream = Stream(
            routes: routes, request: kept, credential: routes.keptCredential(in: request), plan: plan, keys: keys, hub: hub,
            cards: cards)
        // The site's headers for its HTML (nosniff, framing, referrer), then the stream's own.
        var headers = routes.site.htmlHeaders
        headers["Content-Type"] = "text/event-stream"
        headers["Cache-Control"] = "no-store"
        headers["X-Accel-Buffering"] = "no"
        // A HEAD answer's body is never written: its subscription would hold a place until the hub closed.
        if request.method == .head { subscription.end() }
        return Response(
            headers: headers, body: .stream(ResponseStream(handingOver: { writer in stream.start(subscription, sent: sent, into: writer) })))
    }

    /// `alerts=3.balances=1` → versions by section.
    static func versions(in id: String?) -> [SectionID: Int] {
        var versions: [SectionID: Int] = [:]
        for pair in (id ?? "").split(separator: ".") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let version = Int(parts[1]) { versions[SectionID(String(parts[0]))] = version }
        }
        return versions
    }

    /// One open stream: what it watches and how it renders. A class: the
    /// frames of the task handling a change hold a reference, not a copy of
    /// every field.
    final class Stream: Sendable {
        let routes: PageRoutes<Page>
        let request: Request
        /// The request's credential as answers are kept for it, read once: it is the same for every change.
        let credential: String?
        let plan: CompositionPlan
        let keys: [(id: SectionID, keys: Set<LiveKey>)]
        let hub: LiveHub
        /// Its kept cards as the stream opened, in the order of `keys`; `nil` for a card never kept.
        let cards: [Card?]
        private var page: Page { routes.page }

        init(
            routes: PageRoutes<Page>, request: Request, credential: String?, plan: CompositionPlan, keys: [(id: SectionID, keys: Set<LiveKey>)],
            hub: LiveHub, cards: [Card?]
        ) {
            self.routes = routes
            self.request = request
            self.credential = credential
            self.plan = plan
            self.keys = keys
            self.hub = hub
            self.cards = cards
        }

        /// What the stream has sent its client and owes it. Read and changed
        /// only by the change being handled: `LiveChanges.serve` hands the
        /// stream one change at a time, and each after the last has been handled.
        final class Progress: @unchecked Sendable {
            /// The version the client has of each watched section (its last event's, or the page's cards'),
            /// in the order of `keys`: an array, not a dictionary by id, since every stream a change
            /// reaches reads it, and makes its event id from it.
            var versions: [Int]
            /// The sections whose data changed since the version the client has.
            var behind: [Bool]
            /// Whether the stream waits for its client to take what was sent, to be nudged then.
            var nudgeAsked = false
            var pulse: Pulse

            init(versions: [Int], behind: [Bool], lastSent: UInt64) {
                self.versions = versions
                self.behind = behind
                pulse = Pulse(lastSent: lastSent)
            }
        }

        /// Sends each watched section's card when its data changes, never
        /// more than the client takes: while it has not taken the last event,
        /// changed sections are only noted, and sent at their newest once it
        /// has. A stream holds one write's bytes, not a backlog, and no task
        /// while it waits: each change is handled by a task that ends with it.
        func start(_ subscription: LiveSubscription, sent asked: [SectionID: Int], into writer: ResponseBodyWriter) {
            writer.writeWithoutWaiting(Array("retry: 1000\n\n".utf8))
            let current = keys.map { version(of: $0.keys) }
            let versions = keys.indices.map { asked[keys[$0].id] ?? current[$0] }
            // What changed since.
            let progress = Progress(
                versions: versions, behind: keys.indices.map { versions[$0] != current[$0] }, lastSent: writer.sentBytes)
            // The client gone, the hub lets go of the stream; the stream ended, its body ends.
            writer.whenClosed { subscription.cancel() }
            subscription.changes.serve(
                quickly: { change in self.handleQuickly(change, progress, subscription, writer) },
                { change in await self.handle(change, progress, subscription, writer) }, atEnd: { writer.finish() })
            if progress.behind.contains(true) { subscription.nudge() }
        }

        /// Handles one change of the stream's keys, or the hub's end, heartbeat or nudge; `false` when the stream ends.
        private func handle(_ change: LiveHub.Change, _ progress: Progress, _ subscription: LiveSubscription, _ writer: ResponseBodyWriter) async
            -> Bool
        {
            if let handled = handleQuickly(change, progress, subscription, writer) { return handled }
            if change.key == LiveHub.beatKey {
                guard beat(&progress.pulse, writer) else { return false }
                return await context() != nil
            }
            return await send(&progress.behind, sent: &progress.versions, into: writer)
        }

        /// `handle` without waiting for anything, the usual case of a change
        /// (its card's event made already by another stream, the visitor
        /// kept): on the thread that tells the stream, with no task. `nil`
        /// when `handle` must do it; doing it then, it does nothing twice.
        private func handleQuickly(_ change: LiveHub.Change, _ progress: Progress, _ subscription: LiveSubscription, _ writer: ResponseBodyWriter)
            -> Bool?
        {
            if change.key == LiveHub.endKey {
                // Replaced by a newer page of the user's, or signed out: the script must not reopen it.
                writer.writeWithoutWaiting(Array("event: end\ndata: \(change.version == 0 ? "replaced" : "signed-out")\n\n".utf8))
                return false
            }
            // A heartbeat checks the visitor is still signed in: from what is kept for them, or read.
            if change.key == LiveHub.beatKey { return hasKeptVisitor ? beat(&progress.pulse, writer) : nil }
            if change.key == LiveHub.nudgeKey { progress.nudgeAsked = false }
            // A section already sent at its newest version is not sent again. Its few keys are
            // compared, not hashed: every stream the change reaches asks.
            for index in keys.indices where !progress.behind[index] && keys[index].keys.contains(where: { $0 == change.key }) {
                progress.behind[index] = progress.versions[index] != version(of: keys[index].keys)
            }
            guard progress.behind.contains(true) else { return true }
            guard writer.unsentBytes == 0 else {
                if !progress.nudgeAsked { writer.whenDrained { subscription.nudge() } }
                progress.nudgeAsked = true
                return true
            }
            return sendMade(&progress.behind, sent: &progress.versions, into: writer)
        }

        /// What the stream's heartbeats have seen of its client.
        struct Pulse {
            /// Bytes the client had taken at the last beat.
            var lastSent: UInt64
            /// Beats in a row at which bytes waited and the client took none.
            var stalled = 0
        }

        /// One heartbeat (the hub's, every `LiveStream.heartbeat`), but the
        /// check of its visitor: it keeps proxies from closing an idle
        /// stream, and shows a departed client. A client that took nothing
        /// for `stalledBeats` beats while bytes waited has stopped reading.
        /// `false` when the stream ends.
        private func beat(_ pulse: inout Pulse, _ writer: ResponseBodyWriter) -> Bool {
            let unsent = writer.unsentBytes, sentNow = writer.sentBytes
            pulse.stalled = unsent > 0 && sentNow == pulse.lastSent ? pulse.stalled + 1 : 0
            pulse.lastSent = sentNow
            if pulse.stalled >= LiveStream.stalledBeats {
                writer.abandon()
                return false
            }
            if unsent == 0 { writer.writeWithoutWaiting(Array(":hb\n\n".utf8)) }
            return writer.isOpen
        }

        private func version(of keys: Set<LiveKey>) -> Int { hub.version(of: keys) }

        /// The visitor's context as a request would make it now; `nil` once
        /// they are signed out or their session ended. Not their activity:
        /// an open tab does not keep a session from idling out.
        private func context() async -> Page.Context? {
            guard let visit = await visit() else { return nil }
            return await context(of: visit)
        }

        /// The visitor's context as a request would make it now; `nil` when it cannot be made.
        private func context(of visit: Visit) async -> Page.Context? {
            try? await page.context(from: request, visitor: visit.visitor(as: Page.User.self))
        }

        /// The visitor, checked again; `nil` once they are signed out or their session ended.
        private func visit() async -> Visit? {
            // As kept for the stream's credential while its versions stand: a change sent to a thousand
            // streams of one session reads the session once, not a thousand times.
            try? await routes.visit(request, for: .script, renewing: false, credential: credential)
        }

        /// The event of a card another stream made at `version` with the id
        /// `eventID`, for this page, if one is kept.
        private func keptEvent(_ id: SectionID, _ card: Card, at version: Int, id eventID: String) -> [UInt8]? {
            let entry = StackPageController.cacheEntry(of: id, key: card.cacheKey, keys: card.keys, version: version)
            return routes.events.content(for: Self.eventKey(entry, eventID, card.page))
        }

        /// The stream's event id once it has sent the section at `index` of
        /// `keys` at `version`: the version it has sent of each section
        /// (`alerts=3.balances=1`).
        private func eventID(_ sent: [Int], sending index: Int, at version: Int) -> String {
            // Written as bytes: every stream a change reaches makes its id.
            var id = ByteWriter(capacity: 64)
            for (place, entry) in keys.enumerated() {
                if place > 0 { id.append(".") }
                id.append(entry.id.rawValue)
                id.append("=")
                id.appendDecimal(place == index ? version : sent[place])
            }
            return id.withBytes { String(decoding: $0, as: UTF8.self) }
        }

        /// What an event is kept under: its card's entry, its id, and the
        /// page address its card's links are made from.
        static func eventKey(_ entry: String, _ eventID: String, _ page: String) -> String {
            entry + "\u{1E}" + eventID + "\u{1E}" + page
        }

        /// A card as a server-sent event: every CR, LF or CRLF in it starts a
        /// new data line. Worked on bytes, in one buffer: a change reaches
        /// thousands of streams, and each writes its own event.
        static func event(id: String, card html: borrowing HTMLWriter) -> [UInt8] {
            var event = Array("event: section\nid: \(id)\ndata: ".utf8)
            html.withBytes { card in
                event.reserveCapacity(event.count + card.count + 16)
                var start = 0
                while let end = card[start...].firstIndex(where: { $0 == 0x0D || $0 == 0x0A }) {
                    event.append(contentsOf: card[start..<end])
                    event += Array("\ndata: ".utf8)
                    start = card[end] == 0x0D && end + 1 < card.count && card[end + 1] == 0x0A ? end + 2 : end + 1
                }
                event.append(contentsOf: card[start...])
            }
            event += [0x0A, 0x0A]
            return event
        }

        /// `section` loaded, unless kept, and in its card.
        private func render(_ section: SectionController, of controller: StackPageController, into html: inout HTMLWriter) async {
            await section.loadTree(routes.site.settings.loadOptions)
            controller.renderCard(section, into: &html)
        }

        /// `section`'s card as the event `eventID`, and whether the event is
        /// every stream's at this version (its card kept, nothing in it fallen
        /// back). Many streams show the same card: the first makes its event
        /// and keeps it, the others wait for that, then take it.
        private func event(of section: SectionController, in controller: StackPageController, id eventID: String) async -> (
            event: [UInt8], isShared: Bool
        ) {
            let page = controller.address?.url(for: plan) ?? ""
            guard let entry = section.cacheEntryKey else { return await made(section, in: controller, id: eventID, page: page) }
            var event: (event: [UInt8], isShared: Bool) = ([], false)
            if await routes.renders.once(entry, { event = await made(section, in: controller, id: eventID, page: page) }) { return event }
            if let lookup = section.cacheLookupKey, let kept = routes.events.content(for: Self.eventKey(lookup, eventID, page)) {
                return (kept, true)
            }
            // Made for another page, or it fell back: made here, from the card kept if it was.
            if let cache = routes.site.sectionCache { controller.useCache(cache, except: routes.site.settings.uncachedSections) }
            return await made(section, in: controller, id: eventID, page: page)
        }

        /// `section` loaded, unless kept, and made into the event `eventID`;
        /// kept for the other streams when its card was kept at its version.
        private func made(_ section: SectionController, in controller: StackPageController, id eventID: String, page: String) async -> (
            event: [UInt8], isShared: Bool
        ) {
            var html = HTMLWriter()
            await render(section, of: controller, into: &html)
            let event = Self.event(id: eventID, card: html)
            // Known once rendered: a load that fell back (or a stream that left mid-render) shows only itself.
            guard section.isVersioned, !Task.isCancelled, let lookup = section.cacheLookupKey else { return (event, false) }
            routes.events.store(event, for: Self.eventKey(lookup, eventID, page))
            return (event, true)
        }

        /// `send` when nothing in it waits, the usual case: one card due, its
        /// event made already by another stream, the visitor kept. Not async:
        /// every stream but the one that makes the event takes this way.
        /// `nil` when `send` must do it. Called when the client has taken
        /// everything written (`unsentBytes` is 0), so the write need not wait.
        private func sendMade(_ due: inout [Bool], sent: inout [Int], into writer: ResponseBodyWriter) -> Bool? {
            guard due.count(where: \.self) == 1, let index = due.firstIndex(of: true), let card = cards[index] else { return nil }
            let version = version(of: card.keys)
            guard let event = card.made(at: version, id: eventID(sent, sending: index, at: version)), hasKeptVisitor else { return nil }
            sent[index] = version
            due[index] = false
            writer.writeWithoutWaiting(event)
            return writer.isOpen
        }

        /// Whether the visitor is known, and may see the page, from what is
        /// kept for the stream's credential, with no read; `false` when they
        /// must be checked (`visit()`).
        private var hasKeptVisitor: Bool {
            guard routes.signIn != nil else { return true }
            return routes.keptVisit(credential: credential, renewing: false).map(routes.admits) ?? false
        }

        /// Renders the sections marked `due` (by their places in `keys`) for
        /// the stream's visitor, sends each as an event and clears its mark.
        /// `false` when the visitor is gone. Marks, not a list of places: no
        /// array is made at each change of each stream.
        private func send(_ due: inout [Bool], sent: inout [Int], into writer: ResponseBodyWriter) async -> Bool {
            let dueCount = due.count(where: \.self)
            guard dueCount > 0 else { return true }
            // The visitor checked again: signed out or expired, the stream ends.
            guard let visit = await visit() else { return false }
            // One changed card of those the stream opened with, the usual case: its event is made once
            // for all the streams that show the card, by the first to ask; the others wait for it.
            var claim: (card: Card, version: Int, id: String)?
            var madeForClaim: [UInt8]?
            defer { if let claim { claim.card.finish(at: claim.version, id: claim.id, event: madeForClaim) } }
            if dueCount == 1, let index = due.firstIndex(of: true), let card = cards[index] {
                let version = version(of: card.keys)
                let eventID = eventID(sent, sending: index, at: version)
                switch await card.claim(at: version, id: eventID) {
                case .made(let event):
                    sent[index] = version
                    due[index] = false
                    await writer.write(event)
                    return writer.isOpen
                case .yours:
                    claim = (card, version, eventID)
                    // Made already by a stream that opened without this card.
                    if let event = keptEvent(keys[index].id, card, at: version, id: eventID) {
                        madeForClaim = event
                        sent[index] = version
                        due[index] = false
                        await writer.write(event)
                        return writer.isOpen
                    }
                case .elsewhere: break
                }
            }
            // A fresh tree, as a request would build it.
            guard let context = await context(of: visit) else { return false }
            // One changed card, the usual case: its section alone is made, not the whole page's.
            let only = dueCount == 1 ? due.firstIndex(of: true).map { keys[$0].id } : nil
            let controller = routes.makePage(plan: plan, context: context, only: only)
            for index in keys.indices where due[index] {
                due[index] = false
                let id = keys[index].id
                guard let section = controller.children.first(where: { $0.id == id }) else { continue }
                // The version read as the tree was made: a card served as kept was kept at it, not at a newer one.
                let version = section.liveVersion ?? version(of: section.liveKeys)
                let eventID = eventID(sent, sending: index, at: version)
                sent[index] = version
                let (event, isShared) = await event(of: section, in: controller, id: eventID)
                if isShared, let claim, claim.version == version, claim.id == eventID { madeForClaim = event }
                await writer.write(event)
            }
            return writer.isOpen
        }
    }
}
