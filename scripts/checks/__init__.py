"""The project's checks beyond `swift test`, run by `make` through one
entry point, scripts/check.py. `harness` holds what they share (processes,
ports, the demo users, signing in, /proc measures); `devtools` drives
headless Chromium."""

CHECKS = {
    "abuse": ("abuse", "hostile clients against a release build: the server stays up and answers"),
    "bench": ("bench", "speed and memory against C servers in the same run (make bench)"),
    "browser": ("browser", "the pages in headless Chromium: script, themes, phones, accessibility (make browser-check)"),
    "cluster": ("cluster", "two replicas on PostgreSQL behind nginx (make cluster-check)"),
    "crash-loop": ("crash_loop", "writes survive SIGKILL at random moments (make crash-loop)"),
    "dev": ("dev_loop", "make dev rebuilds, restarts and reloads the open tab (make dev-check)"),
    "feed-sqlite": ("feed_sqlite", "the C feed server answers as feed-server does, byte for byte"),
    "html-roundtrip": ("html_roundtrip", "a page parses as HTML5 and serialises back unchanged"),
    "live-bench": ("live_bench", "memory per idle live stream and the fan-out time of a change"),
    "live-most": ("live_most", "the most live streams one server takes, and a normal client's p99 beside them"),
    "metrics": ("metrics", "/metrics counts what was served, and only to whom it should"),
    "readme": ("readme", "every command block of the README runs as written"),
    "soak": ("soak", "a long mixed load: memory and descriptors stay flat (make soak)"),
}
"""Each check's name on the command line: its module and what it checks."""
