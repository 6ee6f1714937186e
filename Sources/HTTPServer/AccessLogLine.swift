#if canImport(Glibc)
    import Glibc
#endif

/// One access-log line as a JSON object, for log pipelines:
/// `{"time":"2026-12-01T17:11:27.123Z","method":"GET","path":"/feed","status":200,"bytes":4096,
/// "duration_us":812,"user":"1","timings":{"load-balances":0.12}}`. Timings are milliseconds.
struct AccessLogLine {
    let state: RequestState
    let microseconds: UInt64
    let termination: String

    var json: String {
        var line = #"{"time":"# + Self.quoted(Self.now()) + #","method":"# + Self.quoted(state.method.rawValue)
        line += #","path":"# + Self.quoted(state.target)
        line += state.status == 0 ? #","status":null,"ended":"# + Self.quoted(termination) : #","status":"# + String(state.status)
        line += #","bytes":"# + String(state.sentBytes) + #","duration_us":"# + String(microseconds)
        if let user = state.user { line += #","user":"# + Self.quoted(user) }
        if let timing = state.timing, !timing.isEmpty {
            line += #","timings":{"#
            for (index, entry) in timing.entries.enumerated() {
                let (seconds, attoseconds) = entry.duration.components
                let micros = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
                line += (index > 0 ? "," : "") + Self.quoted(entry.name) + ":" + String(Double(micros) / 1000)
            }
            line += "}"
        }
        return line + "}"
    }

    /// A JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// UTC, to the millisecond.
    static func now() -> String {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        var parts = tm()
        var seconds = time.tv_sec
        gmtime_r(&seconds, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let millis = time.tv_nsec / 1_000_000
        let ms = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return
            "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)).\(ms)Z"
    }
}
