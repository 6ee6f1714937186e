#if canImport(Glibc)
    import Glibc
#else
    import Darwin
#endif

/// Serves the regular files below one directory, with `ETag`, `304` and
/// `Cache-Control`. A path that resolves outside the directory is not found.
public struct StaticFiles: Sendable {
    /// The directory's real path, without a trailing slash.
    public let root: String
    /// The `Cache-Control` every file is sent with.
    public let cacheControl: String
    /// How long a file is answered from memory before the disk is asked
    /// again whether it changed: an edit shows within this long. A `stat`
    /// per request cost about a third of the answer's CPU time. `.zero`
    /// checks at every request.
    public var revalidationInterval: Duration = .seconds(1)
    /// Small files' bytes, by URL path, checked against the file once a `revalidationInterval`.
    private let cache = FileCache()

    /// - Throws: `ServerError.publicDirectory` when `directory` is not a readable directory.
    public init(directory: String, cacheControl: String = "public, max-age=300") throws(ServerError) {
        guard let resolved = Self.realPath(directory), Self.isDirectory(resolved) else {
            throw .publicDirectory(directory)
        }
        root = resolved
        self.cacheControl = cacheControl
    }

    /// The answer for a GET or HEAD of `request.path`, or `nil` when no such file is served.
    public func response(for request: Request) -> Response? {
        guard let kept = lookUp(request.path) else { return nil }
        let file = kept.file
        if EntityTag.isConfirmed(file.etag, by: request) {
            return Response(status: .notModified, headers: ["ETag": file.etag, "Cache-Control": cacheControl])
        }
        // A file kept in memory is answered as it was the first time: headers, bytes and libmicrohttpd's response.
        if let answer = kept.answer { return answer }
        let headers: HTTPHeaders = ["ETag": file.etag, "Cache-Control": cacheControl, "Content-Type": file.contentType]
        var response = Response(headers: headers, body: kept.bytes.map { .bytes($0) } ?? .file(path: file.path, size: file.size))
        if kept.bytes != nil {
            response = response.preparedForResending()
            cache.attach(response, for: request.path, file: file)
        }
        return response
    }

    /// A file the directory serves: its real path, size, modification time and entity tag.
    struct ResolvedFile: Equatable, Sendable {
        var path: String
        var size: UInt64
        var modified: UInt64
        var etag: String
        /// Found once, when the file is resolved.
        var contentType: String
    }

    /// The file at `urlPath`, with its bytes when small: from the cache while
    /// the file's size and time are unchanged, else resolved and read afresh.
    func lookUp(_ urlPath: String) -> FileCache.Kept? {
        let now = ContinuousClock.now
        if let cached = cache.entry(for: urlPath) {
            if now < cached.checkedAt.advanced(by: revalidationInterval) { return cached.kept }
            let file = cached.kept.file
            if let (size, modified) = Self.fileStatus(file.path), size == file.size, modified == file.modified {
                cache.markChecked(urlPath, file: file, at: now)
                return cached.kept
            }
        }
        guard let file = resolve(urlPath) else { return nil }
        let kept = FileCache.Kept(file: file, bytes: file.size <= FileCache.largestCachedFile ? Self.read(file) : nil)
        cache.store(FileCache.Entry(kept: kept, checkedAt: now), for: urlPath)
        return kept
    }

    /// Resolves a decoded URL path to a regular file inside `root`, or `nil`.
    func resolve(_ urlPath: String) -> ResolvedFile? {
        guard urlPath.hasPrefix("/"), !urlPath.contains("\0"), !urlPath.contains("\\") else { return nil }
        let segments = urlPath.split(separator: "/", omittingEmptySubsequences: true)
        guard !segments.contains(where: { $0 == ".." || $0 == "." }) else { return nil }
        let candidate = root + "/" + segments.joined(separator: "/")
        // Symlinks may point anywhere: judge the path they really lead to, byte
        // by byte (`hasPrefix` would take `é` and `e` + U+0301 for the same directory).
        guard let real = Self.realPath(candidate), real.utf8.starts(with: (root + "/").utf8) else { return nil }
        guard let (size, modified) = Self.fileStatus(real) else { return nil }
        let etag = "\"" + String(size, radix: 16) + "-" + String(modified, radix: 16) + "\""
        return ResolvedFile(path: real, size: size, modified: modified, etag: etag, contentType: MediaType.forFile(named: real))
    }

    /// Size and modification time (ns) of a regular file; `nil` for anything else.
    private static func fileStatus(_ path: String) -> (UInt64, UInt64)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (UInt64(info.st_size), UInt64(info.st_mtim.tv_sec) &* 1_000_000_000 &+ UInt64(info.st_mtim.tv_nsec))
    }

    /// The whole file, or `nil` when it cannot be read or changed size meanwhile.
    private static func read(_ file: ResolvedFile) -> [UInt8]? {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: Int(file.size))
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + done, $0.count - done) }
            guard count > 0 else { return nil }
            done += count
        }
        return bytes
    }

    private static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return s
    }
}
