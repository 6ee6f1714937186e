#if canImport(Glibc)
    import Glibc
#endif

/// One access-log line as a JSON object, for log pipelines:
/// `{"time":"2026-12-01T17:11:27.123Z","method":"GET","path":"/feed","status":200,"bytes":4096,
/// "duration_us":812,"request":"4f1c2a-7","user":"1","timings":{"load-balances":0.12}}`. Timings are milliseconds.
struct AccessLogLine {
    let state: RequestState
    let microseconds: UInt64
    let termination: String

    var json: String {
        var line = #"{"time":"# + LogText.quoted(LogText.now()) + #","method":"# + LogText.quoted(state.method.rawValue)
        line += #","path":"# + LogText.quoted(state.target)
        line += state.status == 0 ? #","status":null,"ended":"# + LogText.quoted(termination) : #","status":"# + String(state.status)
        line += #","bytes":"# + String(state.sentBytes) + #","duration_us":"# + String(microseconds)
        line += #","request":"# + LogText.quoted(state.id.description)
        if let user = state.user { line += #","user":"# + LogText.quoted(user) }
        if let timing = state.timing, !timing.isEmpty {
            line += #","timings":{"#
            for (index, entry) in timing.entries.enumerated() {
                let (seconds, attoseconds) = entry.duration.components
                let micros = max(0, seconds * 1_000_000 + attoseconds / 1_000_000_000_000)
                line += (index > 0 ? "," : "") + LogText.quoted(entry.name) + ":" + String(Double(micros) / 1000)
            }
            line += "}"
        }
        return line + "}"
    }
}
