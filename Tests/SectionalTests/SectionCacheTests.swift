import Synchronization
import Testing

@testable import Sectional

@Suite("The section cache")
struct SectionCacheTests {
    private func bytes(_ count: Int) -> [UInt8] { [UInt8](repeating: 0x61, count: count) }

    @Test func keepsWhatFitsAndDropsTheLeastRecentlyUsedFirst() {
        let entry = SectionCache.size(of: "a", bytes(100))
        let cache = SectionCache(capacity: 3 * entry)
        cache.store(bytes(100), for: "a")
        cache.store(bytes(100), for: "b")
        cache.store(bytes(100), for: "c")
        #expect(cache.content(for: "a") == bytes(100), "a is now the most recently used")
        cache.store(bytes(100), for: "d")
        #expect(cache.content(for: "b") == nil, "b, used least recently, made room")
        #expect(cache.content(for: "a") != nil && cache.content(for: "c") != nil && cache.content(for: "d") != nil)
        let statistics = cache.statistics
        #expect(statistics.entries == 3 && statistics.bytes == 3 * entry && statistics.evictions == 1)
        #expect(statistics.hits == 4 && statistics.misses == 1)
    }

    @Test func boundedByBytesNotEntries() {
        let small = SectionCache.size(of: "s0", bytes(10))
        let cache = SectionCache(capacity: 1_000)
        for index in 0..<5 { cache.store(bytes(10), for: "s\(index)") }
        #expect(cache.statistics.bytes == 5 * small)
        cache.store(bytes(1_000 - 96 - 3 - small), for: "big")
        #expect(cache.statistics.bytes <= 1_000)
        #expect(cache.content(for: "big") != nil)
        #expect(cache.content(for: "s0") == nil, "the oldest small ones went for the big one")
    }

    @Test func replacingAnEntryCountsItsNewSize() {
        let cache = SectionCache(capacity: 10_000)
        cache.store(bytes(100), for: "a")
        cache.store(bytes(300), for: "a")
        #expect(cache.statistics.entries == 1)
        #expect(cache.statistics.bytes == SectionCache.size(of: "a", bytes(300)))
        #expect(cache.content(for: "a")?.count == 300)
    }

    @Test func contentLargerThanTheCacheIsNotKept() {
        let cache = SectionCache(capacity: 500)
        cache.store(bytes(100), for: "a")
        cache.store(bytes(600), for: "huge")
        #expect(cache.content(for: "huge") == nil)
        #expect(cache.content(for: "a") != nil, "nothing was dropped for it")
        let none = SectionCache(capacity: 0)
        none.store(bytes(1), for: "a")
        #expect(none.content(for: "a") == nil && none.statistics.entries == 0)
    }

    @Test("Keys made in one allocation are the parts joined as written out one by one")
    func keyTextIsThePartsJoined() {
        let lists: [[String]] = [
            [], [""], ["", ""], ["alerts", "7"], ["a\u{1F}b", "ünïcødé 🦊", String(repeating: "x", count: 1_234)], ["0123456789", "", "z"],
        ]
        for parts in lists {
            #expect(KeyText.joining(parts, separator: 0x1F) == parts.joined(separator: "\u{1F}"), "\(parts.map(\.count))")
            #expect(KeyText.lengthPrefixed(parts) == parts.map { "\($0.utf8.count):\($0)" }.joined(), "\(parts.map(\.count))")
            for number in [0, 7, 10, 99, 12_345, -1, -808, Int.max, Int.min] {
                #expect(
                    KeyText.joining(parts, then: number, separator: 0x1F) == (parts + [String(number)]).joined(separator: "\u{1F}"),
                    "\(parts.map(\.count)) then \(number)")
            }
        }
    }

    @Test func keysOfPartsCannotBeConfused() {
        #expect(SectionController.cacheKey("a:b", "c") != SectionController.cacheKey("a", "b:c"))
        #expect(SectionController.cacheKey("ab", "") != SectionController.cacheKey("a", "b"))
        #expect(SectionController.cacheKey(["x", "y"]) == SectionController.cacheKey("x", "y"))
    }
}

@Suite("Sections served from the cache")
struct CachedSectionTests {
    /// How many loads ran.
    private final class Loads: Sendable {
        let count = Atomic(0)
        var value: Int { count.load(ordering: .relaxed) }
    }

    /// A section that counts its loads and renders what it loaded.
    private final class CountedSection: SectionController {
        let loads: Loads
        let key: String?
        let keys: Set<LiveKey>
        private var text = ""

        init(loads: Loads, key: String?, keys: Set<LiveKey>) {
            self.loads = loads
            self.key = key
            self.keys = keys
            super.init(id: "alerts", title: "Alerts")
        }

        override var cacheKey: String? { key }
        override var liveKeys: Set<LiveKey> { keys }

        override func makeLoad() -> SectionLoad? {
            let count = loads.count.add(1, ordering: .relaxed).newValue
            return SectionLoad({ "load \(count)" }) { self.text = $0 }
        }

        override func render(into html: inout HTMLWriter) { html.writeRaw("<p>\(text)</p>") }
    }

    /// What a page of one counted section shows, after its load.
    private func render(
        key: String?, keys: Set<LiveKey> = ["alerts:1"], versions: Versions?, cache: SectionCache, loads: Loads
    ) async -> (html: String, fromCache: Bool) {
        let page = StackPageController(id: "feed", title: "Feed")
        let section = CountedSection(loads: loads, key: key, keys: keys)
        page.addChild(section)
        if let versions { page.recordLiveVersions(from: versions) }
        page.useCache(cache)
        _ = await page.loadTree(LoadOptions())
        var html = HTMLWriter()
        page.renderCard(section, into: &html)
        return (String(decoding: html.bytes, as: UTF8.self), section.isFromCache)
    }

    private final class Versions: LiveVersionSource, Sendable {
        let current = Mutex(1)
        func version(of keys: Set<LiveKey>) -> Int { current.withLock { $0 } }
    }

    @Test func aSectionIsServedAsKeptUntilItsDataChanges() async {
        let cache = SectionCache(capacity: 1 << 20)
        let versions = Versions()
        let loads = Loads()
        let first = await render(key: "user 1", versions: versions, cache: cache, loads: loads)
        let second = await render(key: "user 1", versions: versions, cache: cache, loads: loads)
        #expect(first.html.contains("<p>load 1</p>") && !first.fromCache)
        #expect(second.fromCache && second.html == first.html, "the same card, without loading")
        #expect(loads.value == 1)

        versions.current.withLock { $0 = 2 }
        let changed = await render(key: "user 1", versions: versions, cache: cache, loads: loads)
        #expect(!changed.fromCache && changed.html.contains("<p>load 2</p>"), "a new version loads again")
        #expect(await render(key: "user 2", versions: versions, cache: cache, loads: loads).html.contains("load 3"), "another key is another entry")
        #expect(cache.statistics.hits == 1 && cache.statistics.misses == 3)
    }

    @Test func withoutAKeyOrWithoutVersionsNothingIsKept() async {
        let cache = SectionCache(capacity: 1 << 20)
        let loads = Loads()
        for _ in 0..<2 { _ = await render(key: nil, versions: Versions(), cache: cache, loads: loads) }
        #expect(loads.value == 2, "no cache key: loaded every time")
        for _ in 0..<2 { _ = await render(key: "user 1", versions: nil, cache: cache, loads: loads) }
        #expect(loads.value == 4, "live data with no versions to tell when it changed: loaded every time")
        #expect(cache.statistics.entries == 0)
        for _ in 0..<2 { _ = await render(key: "pure", keys: [], versions: nil, cache: cache, loads: loads) }
        #expect(loads.value == 5, "no live data at all: the key says everything, kept")
    }

    @Test func aCardWithAChildThatFellBackIsNeverKept() async {
        final class Container: SectionController {
            override var cacheKey: String? { "k" }
        }
        let cache = SectionCache(capacity: 1 << 20)
        let container = Container(id: "alerts", title: "Alerts")
        container.addChild(FailingSection(id: "inner", title: "Inner", cacheKey: nil))
        #expect(await Self.card(container, loadedWith: cache).contains("Inner could not be loaded"))
        #expect(cache.statistics.entries == 0, "its fallback would have been served as kept")
    }

    @Test func aFallbackIsNeverKept() async {
        let cache = SectionCache(capacity: 1 << 20)
        #expect(await Self.card(FailingSection(id: "alerts", title: "Alerts", cacheKey: "k"), loadedWith: cache).contains("could not be loaded"))
        #expect(cache.statistics.entries == 0)
    }

    /// `section`'s card on a page of its own that uses `cache`, once loaded.
    private static func card(_ section: SectionController, loadedWith cache: SectionCache) async -> String {
        let page = StackPageController(id: "feed", title: "Feed")
        page.addChild(section)
        page.useCache(cache)
        _ = await page.loadTree(LoadOptions())
        var html = HTMLWriter()
        page.renderCard(section, into: &html)
        return String(decoding: html.bytes, as: UTF8.self)
    }
}

/// A section whose load always fails: its card shows the fallback.
private final class FailingSection: SectionController {
    private let key: String?

    init(id: SectionID, title: String, cacheKey: String?) {
        key = cacheKey
        super.init(id: id, title: title)
    }

    override var cacheKey: String? { key }

    override func makeLoad() -> SectionLoad? {
        SectionLoad({ () async throws -> String in throw CancellationError() }) { _ in }
    }
}

@Suite("Values kept with the versions they were made from")
struct StampedMemoTests {
    /// Versions a test sets by key; 0 for a key never changed. Counting
    /// its changes, as the live hub does, or not, as a source need not.
    private final class Versions: LiveVersionSource, Sendable {
        let current = Mutex([LiveKey: Int]())
        let counts: Bool
        private let changes = Atomic(0)
        init(counting: Bool = false) { counts = counting }
        func version(of keys: Set<LiveKey>) -> Int { current.withLock { versions in keys.reduce(0) { $0 + (versions[$1] ?? 0) } } }
        func set(_ key: LiveKey, _ version: Int) {
            current.withLock { versions in
                versions[key] = version
                changes.add(1, ordering: .releasing)
            }
        }
        var changeCount: Int? { counts ? changes.load(ordering: .acquiring) : nil }
    }

    private final class Card: SectionController {
        let keys: Set<LiveKey>
        let key: String?
        init(keys: Set<LiveKey>, cacheKey: String?) {
            self.keys = keys
            key = cacheKey
            super.init(id: "alerts", title: "Alerts")
        }
        override var liveKeys: Set<LiveKey> { keys }
        override var cacheKey: String? { key }
        override func makeLoad() -> SectionLoad? { SectionLoad({ "x" }) { _ in } }
    }

    /// A loaded page of `cards`, its versions read from `versions`, looked up in a cache.
    private func loaded(_ cards: [SectionController], _ versions: Versions) async -> StackPageController {
        let page = StackPageController(id: "feed", title: "Feed")
        for card in cards { page.addChild(card) }
        page.recordLiveVersions(from: versions)
        page.useCache(SectionCache(capacity: 1 << 20))
        _ = await page.loadTree(LoadOptions())
        return page
    }

    /// Whether the versions count their changes: a value confirmed at one
    /// count is given back at the same count without its versions looked up.
    @Test(arguments: [false, true])
    func standsWhileEveryVersionDoesAndUntilItExpires(counting: Bool) async {
        let versions = Versions(counting: counting)
        versions.set("signin:1", 4)
        let page = await loaded([Card(keys: ["alerts:1"], cacheKey: "k")], versions)
        var basis = AnswerBasis()
        let now = ContinuousClock.now
        basis.add(ReadStamp([("signin:1", 4)], expires: now + .seconds(60)))
        basis.add(card: page.children[0])
        let kept = StampedMemo<String, String>(capacity: 1 << 16) { key, value in key.utf8.count + value.utf8.count }
        kept.keep("\"t\"", basis: basis, for: "page /feed")
        #expect(kept.standing("page /feed", versions: versions, now: now) == "\"t\"")
        #expect(kept.standing("page /feed", versions: versions, now: now) == "\"t\"", "confirmed again, nothing changed")
        #expect(kept.standing("page /feed?x", versions: versions, now: now) == nil, "another request")
        #expect(kept.standing("page /feed", versions: versions, now: now + .seconds(60)) == nil, "the session is due its renewal")
        kept.keep("\"t\"", basis: basis, for: "page /feed")
        #expect(kept.standing("page /feed", versions: versions, now: now) == "\"t\"")
        versions.set("alerts:1", 1)
        #expect(kept.standing("page /feed", versions: versions, now: now) == nil, "a card's data changed")
        versions.set("alerts:1", 0)
        kept.keep("\"t\"", basis: basis, for: "page /feed")
        #expect(kept.standing("page /feed", versions: versions, now: now) == "\"t\"")
        versions.set("signin:1", 5)
        #expect(kept.standing("page /feed", versions: versions, now: now) == nil, "the visitor's sessions changed")
    }

    @Test func anAnswerWithAnythingUnversionedIsNotKept() async {
        let versions = Versions()
        let kept = StampedMemo<String, String>(capacity: 1 << 16) { key, value in key.utf8.count + value.utf8.count }
        let cases: [(String, SectionController, ReadStamp?)] = [
            ("a card with no cache key", Card(keys: ["alerts:1"], cacheKey: nil), ReadStamp()),
            ("a card that fell back", FailingSection(id: "alerts", title: "Alerts", cacheKey: "k"), ReadStamp()),
            ("a visitor read unstamped", Card(keys: ["alerts:1"], cacheKey: "k"), nil),
        ]
        for (name, card, visitor) in cases {
            let page = await loaded([card], versions)
            var basis = AnswerBasis()
            basis.add(visitor)
            basis.add(card: page.children[0])
            kept.keep("\"t\"", basis: basis, for: name)
            #expect(kept.standing(name, versions: versions) == nil, "\(name) is not kept")
        }
        let page = await loaded([Card(keys: [], cacheKey: "pure")], versions)
        var basis = AnswerBasis()
        basis.add(card: page.children[0])
        kept.keep("\"t\"", basis: basis, for: "pure")
        #expect(kept.standing("pure", versions: versions) != nil, "a card of no live data, its key saying everything, is kept")
    }
}
