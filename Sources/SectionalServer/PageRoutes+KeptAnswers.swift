import HTTPServer
import Sectional
import Synchronization

extension PageRoutes {
    /// The answer kept for `request` while what it was made from stands,
    /// sent before anything is read, loaded or rendered: a `304` when the
    /// request names its tag, else the answer itself when it was sent whole.
    /// `nil` for anything else, which the route answers in full. It takes the
    /// request's credential (`keptCredential(in:)`) alone: what a made
    /// answer gathers (`AnswerMaking`) is made only when it is made.
    func keptAnswer(_ kind: AnswerKind, to request: Request, credential: String?) -> Response? {
        guard let memos, let credential,
            let answer = memos.answers.standing(AnswerKey(kind, of: request, credential: credential), versions: memos.versions)
        else { return nil }
        let confirmed = request.headers.withValue(of: "If-None-Match") { asked in !asked.isEmpty && EntityTag.matches(asked, answer.tag) }
        let response: Response
        if confirmed == true {
            response = answer.notModified(headers: kind == .description ? notModifiedHeaders.description : notModifiedHeaders.html)
        } else {
            guard let whole = answer.sentAgain() else { return nil }
            response = whole
        }
        request.log?.user = answer.user
        return response
    }

    /// `response`, kept with its tag and what it was made from (`made` and
    /// `cards`) when that is versioned throughout: the answer in full too
    /// when it went whole and says nothing of one request alone.
    func keeping(
        _ response: consuming Response, _ kind: AnswerKind, _ request: Request, _ made: AnswerMaking, cards: some Sequence<SectionController>
    ) -> Response {
        if let memos, let credential = made.credential, response.status == .ok || response.status == .notModified,
            let tag = response.headers["ETag"]
        {
            let key = AnswerKey(kind, of: request, credential: credential)
            var basis = made.basis
            for card in cards { basis.add(card: card) }
            if basis.isVersioned, Self.isWorthKeeping(made.visit, under: credential) {
                memos.answers.keep(KeptAnswer(tag: tag, user: made.visit.name, whole: sendableAgain(response)), basis: basis, for: key)
            }
        }
        return consume response  // `Response` says why
    }

    /// `response` as it may be sent again: a `200` in memory that sets no
    /// cookie, its bytes copied to their exact size (a rendered page's buffer
    /// has room to spare), its timing (where the site sends timings) the one
    /// entry `kept`; `nil` for anything else.
    private func sendableAgain(_ response: borrowing Response) -> Response? {
        guard response.status == .ok, response.headers["Set-Cookie"] == nil else { return nil }
        let bytes: [UInt8]
        switch response.body {
        case .bytes(let kept): bytes = kept
        case .buffer(let buffer): bytes = buffer.withBytes { Array($0) }
        case .file, .stream: return nil
        }
        var again = Response(status: .ok, headers: response.headers, body: .bytes(bytes))
        if site.settings.serverTiming {
            var timing = ServerTiming()
            timing.add("kept", .zero)
            again.timing = timing
        }
        return again
    }

    /// The fields of a `304` but its tag, made once: as the answer in full
    /// would have them (`validated(_:for:varying:)`).
    static func notModifiedHeaders(html: HTTPHeaders) -> (html: HTTPHeaders, description: HTTPHeaders) {
        func made(_ headers: HTTPHeaders, varying: String) -> HTTPHeaders {
            var headers = headers
            headers.add("Vary", varying)
            headers["Cache-Control"] = revalidatedCacheControl
            return headers
        }
        return (made(html, varying: "Cookie"), made(Response.jsonHeaders, varying: descriptionVaries))
    }

    /// What says who sends `request`: `""` on a site without sign-in; `nil` when its sign-in cannot tell.
    func credential(in request: Request) -> String? {
        guard let signIn else { return "" }
        return signIn.credential(in: request)
    }

    /// `request`'s credential when the routes keep anything by it; `nil` when they keep nothing.
    func keptCredential(in request: Request) -> String? { memos == nil ? nil : credential(in: request) }

    /// Whether what `visit` is or was sent is kept under `credential`: nobody
    /// is kept only for no credential; a token nobody holds (made up, or
    /// ended) is not worth a place.
    static func isWorthKeeping(_ visit: Visit, under credential: String) -> Bool { visit.name != nil || credential.isEmpty }

    /// The visitor kept for `credential` while what they were read from
    /// stands; `nil` when they must be read.
    func keptVisit(credential: String?, renewing: Bool) -> Visit? {
        // Checks that do not renew the session (a live page's) are kept apart: they hold longer, and
        // a request that renews must not take one and skip the renewal.
        guard let memos, let credential else { return nil }
        return memos.visits.standing(VisitKey(credential: credential, renewing: renewing), versions: memos.versions)
    }

    /// Who sent `request`: as kept for its `credential` while that stands,
    /// else as the sign-in reads them, then kept.
    func knownVisit(_ request: Request, _ signIn: any SignIn, renewing: Bool, credential: String?) async throws(HTTPError) -> Visit {
        if let kept = keptVisit(credential: credential, renewing: renewing) { return kept }
        let key = credential.map { VisitKey(credential: $0, renewing: renewing) }
        let visit = try await signIn.visit(for: request, renewing: renewing)
        if let memos, let key, let credential, Self.isWorthKeeping(visit, under: credential) {
            memos.keep(visit, read: visit.readAt, in: memos.visits, for: key)
        }
        return visit
    }

    /// The layout `request` is composed on: as kept for the same request and
    /// `credential` while it stands, else as the page reads it, then kept.
    func knownLayout(_ request: Request, _ context: Page.Context, credential: String?) async -> SavedLayout {
        let key = credential.map { AnswerKey(.layout, of: request, credential: $0) }
        if let memos, let key, let kept = memos.layouts.standing(key, versions: memos.versions) { return kept }
        let layout = await page.savedLayout(for: context)
        if let memos, let key { memos.keep(layout, read: layout.readAt, in: memos.layouts, for: key) }
        return layout
    }
}

/// Who an answer is for and what it is made from so far: its visitor's
/// stamp, its layout's, then its cards'.
struct AnswerMaking {
    var visit = Visit.nobody
    /// What in the request says who sends it, read once; `nil` when nothing
    /// is kept (then nothing is gathered either).
    let credential: String?
    var basis: AnswerBasis

    init(credential: String?) {
        self.credential = credential
        basis = AnswerBasis(keeping: credential != nil)
    }
}

/// The three answers a page gives, each kept apart, and the layout each request was composed on.
enum AnswerKind: String {
    case page, fragment, description, layout
}

/// An answer kept (`PageMemos.answers`): its tag, who it was for (for the
/// access log, `Request.log`), the answer itself when it was sent whole,
/// and the `304` that confirms it. Each is built for libmicrohttpd the
/// first time it is sent again, and queued as it is from then on.
final class KeptAnswer: Sendable {
    let tag: String
    let user: String?
    /// The answer sent in full, to send again unchanged; `nil` for one known only by its tag.
    private let whole: Response?
    private let wholeBuilt = BuiltOnce()
    private let notModifiedBuilt = BuiltOnce()

    init(tag: String, user: String?, whole: Response? = nil) {
        self.tag = tag
        self.user = user
        self.whole = whole
    }

    /// What it holds in memory, about: its tag, and the answer kept whole
    /// with its fields and libmicrohttpd's copy of them once built.
    var size: Int { tag.utf8.count + 256 + (whole.map { Int($0.body.count) + 2 * $0.headers.storageBytes + 512 } ?? 0) }

    /// The answer in full, as it was first sent (its timing aside); `nil` when only its tag is kept.
    func sentAgain() -> Response? {
        guard let whole else { return nil }
        return wholeBuilt.response { whole }
    }

    /// The `304` with `headers` and the tag.
    func notModified(headers: HTTPHeaders) -> Response {
        notModifiedBuilt.response {
            var headers = headers
            headers.add("ETag", tag)
            return Response(status: .notModified, headers: headers, body: .bytes([]))
        }
    }
}

/// A response prepared for resending (`Response.preparedForResending()`),
/// built by the first caller and shared by every one after it. Its address
/// is read with an atomic load, not under a lock: every kept answer sent
/// reads it, from every thread. (`AtomicLazyReference` does the same, but
/// looked its generic type up at every load: 640 instructions of a `304`'s
/// 82,000.)
private final class BuiltOnce: Sendable {
    /// The built response's box, retained; 0 before.
    private let address = Atomic<UInt>(0)

    private final class Prepared: Sendable {
        let response: Response
        init(_ response: Response) { self.response = response }
    }

    deinit {
        if let built = Self.prepared(at: address.load(ordering: .acquiring)) { built.release() }
    }

    /// The response `make` gives, prepared once.
    func response(_ make: () -> Response) -> Response {
        if let built = Self.prepared(at: address.load(ordering: .acquiring)) { return built.takeUnretainedValue().response }
        let made = Unmanaged.passRetained(Prepared(make().preparedForResending()))
        let (stored, first) = address.compareExchange(expected: 0, desired: UInt(bitPattern: made.toOpaque()), ordering: .acquiringAndReleasing)
        guard !stored, let built = Self.prepared(at: first) else { return made.takeUnretainedValue().response }
        made.release()  // another thread built it first
        return built.takeUnretainedValue().response
    }

    private static func prepared(at address: UInt) -> Unmanaged<Prepared>? {
        UnsafeRawPointer(bitPattern: address).map { Unmanaged<Prepared>.fromOpaque($0) }
    }
}

/// What the routes keep while the versions it was made from stand
/// (`StampedMemo`): with them, a page whose cards are kept is made
/// again with no database read, a request naming the tag it was sent
/// with is answered `304` with nothing made at all, and one that names
/// none is sent the answer kept whole. None without the versions (a live
/// hub) or a section cache.
final class PageMemos: Sendable {
    /// The answers sent whole: their tags, and their bytes when they may be sent again.
    let answers: StampedMemo<AnswerKey, KeptAnswer>
    /// Who each credential is (`SignIn.visit(for:renewing:)`).
    let visits: StampedMemo<VisitKey, Visit>
    /// The saved layout each request was composed on (`ComposedPage.savedLayout(for:)`).
    let layouts: StampedMemo<AnswerKey, SavedLayout>
    let versions: LiveHub

    /// Memos of `capacity` bytes in all, for a site with `versions`.
    init(capacity: Int, versions: LiveHub) {
        answers = StampedMemo(capacity: capacity / 2) { key, answer in key.size + answer.size }
        visits = StampedMemo(capacity: capacity / 4) { key, _ in key.credential.utf8.count + 256 }
        layouts = StampedMemo(capacity: capacity / 4) { key, layout in key.size + 32 * (layout.sections?.count ?? 0) }
        self.versions = versions
    }

    /// Keeps `value`, read at `stamp`, in `memo`. The versions read are
    /// committed ones: a version this replica has not heard of yet (a change
    /// its own writes did not announce, a notification still on its way) is
    /// learnt from the read, so what was read can be confirmed at once.
    func keep<Key: Hashable & Sendable, Value: Sendable>(
        _ value: Value, read stamp: ReadStamp?, in memo: StampedMemo<Key, Value>, for key: Key
    ) {
        var basis = AnswerBasis()
        basis.add(stamp)
        for (key, version) in stamp?.versions ?? [] { versions.received(key, version: version) }
        memo.keep(value, basis: basis, for: key)
    }
}

/// What a visit is kept under: the credential, and whether the check
/// renews the session. Hashed with `QuickHash` and compared by bytes, as
/// `AnswerKey` is: every page made and every change to a live stream looks
/// one up.
struct VisitKey: Hashable, Sendable {
    let credential: String
    let renewing: Bool

    static func == (a: VisitKey, b: VisitKey) -> Bool { a.renewing == b.renewing && QuickHash.sameBytes(a.credential, b.credential) }

    func hash(into hasher: inout Hasher) {
        var quick = QuickHash()
        quick.add(credential)
        quick.add(renewing ? 1 : 0)
        hasher.combine(quick.value)
    }
}

/// What a kept answer is found under: its kind, the request's path and
/// query, and the credential it carries (`SignIn.credential(in:)`).
/// Compared field by field, not joined into one string: every
/// conditional request makes one, and joining cost 4,000 instructions.
struct AnswerKey: Hashable, Sendable {
    let kind: AnswerKind
    let path: String
    let query: [QueryItem]
    let credential: String

    /// The key of `request`'s answer of `kind`, for `credential`.
    init(_ kind: AnswerKind, of request: Request, credential: String) {
        self.kind = kind
        path = request.path
        query = request.query
        self.credential = credential
    }

    var size: Int { path.utf8.count + credential.utf8.count + query.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count + 32 } + 64 }

    /// Compared by bytes, as `QuickHash` hashes: two spellings of one accented
    /// letter are two keys, never one key of two hashes.
    static func == (a: AnswerKey, b: AnswerKey) -> Bool {
        a.kind == b.kind && QuickHash.sameBytes(a.path, b.path) && QuickHash.sameBytes(a.credential, b.credential)
            && a.query.count == b.query.count
            && zip(a.query, b.query).allSatisfy { QuickHash.sameBytes($0.name, $1.name) && QuickHash.sameBytes($0.value, $1.value) }
    }

    /// Every `304` looks a key up: hashed with `QuickHash`, not SipHash.
    func hash(into hasher: inout Hasher) {
        var quick = QuickHash()
        quick.add(kind.rawValue)
        quick.add(path)
        quick.add(query.count)
        for item in query {
            quick.add(item.name)
            quick.add(item.value)
        }
        quick.add(credential)
        hasher.combine(quick.value)
    }
}
