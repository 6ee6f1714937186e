import Synchronization

/// The bytes of small static files, by URL path, so that serving one costs a
/// lookup (and now and then a `stat`) instead of resolving the path and opening the file.
final class FileCache: Sendable {
    /// A file as last found on disk, with its bytes and, once built, its 200
    /// answer. Immutable and shared: a hit hands out this one reference, not
    /// copies of its strings, bytes and answer (a struct's copy and its
    /// destruction cost 600 instructions a static file).
    final class Kept: Sendable {
        let file: StaticFiles.ResolvedFile
        /// `nil` for a file too large to keep: it is sent from disk.
        let bytes: [UInt8]?
        /// The 200 answer, headers and all, built once for libmicrohttpd; made on first use.
        let answer: Response?

        init(file: StaticFiles.ResolvedFile, bytes: [UInt8]?, answer: Response? = nil) {
            self.file = file
            self.bytes = bytes
            self.answer = answer
        }
    }

    struct Entry: Sendable {
        var kept: Kept
        /// When the file on disk was last found unchanged.
        var checkedAt: ContinuousClock.Instant
    }

    /// Larger files are sent with `sendfile` instead.
    static let largestCachedFile: UInt64 = 256 * 1024
    /// Distinct URL paths kept at most: spellings of a path (`//a.css`) cannot grow it without bound.
    static let capacity = 256

    private let entries = Mutex<[String: Entry]>([:])

    func entry(for urlPath: String) -> Entry? {
        entries.withLock { $0[urlPath] }
    }

    /// Keeps the built answer with the entry, if the entry still describes the same file.
    func attach(_ answer: Response, for urlPath: String, file: StaticFiles.ResolvedFile) {
        entries.withLock { entries in
            guard let entry = entries[urlPath], entry.kept.file == file else { return }
            entries[urlPath]?.kept = Kept(file: file, bytes: entry.kept.bytes, answer: answer)
        }
    }

    /// Notes that the file was found unchanged at `instant`, if the entry still describes it.
    func markChecked(_ urlPath: String, file: StaticFiles.ResolvedFile, at instant: ContinuousClock.Instant) {
        entries.withLock { entries in
            if entries[urlPath]?.kept.file == file { entries[urlPath]?.checkedAt = instant }
        }
    }

    func store(_ entry: Entry, for urlPath: String) {
        entries.withLock { entries in
            if entries.count < Self.capacity || entries[urlPath] != nil { entries[urlPath] = entry }
        }
    }
}
