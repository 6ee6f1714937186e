import HTTPServer

/// In development, in a debug build only (`make dev`): the open tab reloads
/// itself once a new server answers. The page's script listens to a stream
/// that names this process's start; a restarted server names another, and
/// the tab reloads.
enum DevelopmentReload {
    static let scriptPath = "/_dev/reload.js"
    static let streamPath = "/_dev/reload"
    /// Different at each start of the process.
    static let start = String(UInt64.random(in: 0...UInt64.max), radix: 36)

    static let script = """
        // make dev: reload the page when the server restarts with a new build.
        (() => {
          let first = null;
          const source = new EventSource("\(streamPath)");
          source.addEventListener("start", (event) => {
            if (first === null) first = event.data;
            else if (event.data !== first) location.reload();
          });
        })();
        """

    static func register(on router: inout Router) {
        router.getSynchronously(scriptPath) { _ in Response(contentType: "text/javascript; charset=utf-8", body: script) }
        router.get(streamPath) { _ in
            let stream = ResponseStream(staysOpen: true) { writer in
                // EventSource reconnects after `retry` ms, to whichever server answers then.
                await writer.write(Array("retry: 300\nevent: start\ndata: \(start)\n\n".utf8))
                while writer.isOpen && !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(15))
                    await writer.write(Array(":\n\n".utf8))
                }
            }
            return Response(headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"], body: .stream(stream))
        }
    }
}
