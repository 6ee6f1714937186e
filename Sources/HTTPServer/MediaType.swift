/// Content types of the files a site serves, by file extension.
enum MediaType {
    static func forFile(named name: String) -> String {
        byExtension[fileExtension(of: name).lowercased()] ?? "application/octet-stream"
    }

    /// What follows the last `.` of the path's last component (`css` for
    /// `/srv/Public/styles.css`), empty when it has none; found on the bytes
    /// from the end, not by splitting the whole path into characters.
    static func fileExtension(of path: String) -> Substring {
        let utf8 = path.utf8
        var index = utf8.endIndex
        while index > utf8.startIndex {
            let before = utf8.index(before: index)
            switch utf8[before] {
            case UInt8(ascii: "."): return path[index...]
            case UInt8(ascii: "/"): return ""
            default: index = before
            }
        }
        return ""
    }

    private static let byExtension: [String: String] = [
        "html": "text/html; charset=utf-8",
        "css": "text/css; charset=utf-8",
        "js": "text/javascript; charset=utf-8",
        "json": "application/json",
        "txt": "text/plain; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "ico": "image/x-icon",
        "woff2": "font/woff2",
    ]
}
