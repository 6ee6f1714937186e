#!/usr/bin/env python3
"""Checks that Benchmarks/feed_sqlite.c answers as feed-server does: the
check `make bench` makes before it measures the two on SQLite (step 5 of
scripts/checks/bench.py), for every seeded demo user, without building or measuring.

    python3 scripts/check.py feed-sqlite --binary PATH/TO/feed-server

Starts feed-server on a fresh SQLite file (.build/bench/sqlite/bench.sqlite,
which it seeds) and the C server (FEED_SQLITE_C, built by `make
bench-feed-sqlite`) on the same file; signs in as each demo user in turn on
feed-server; and compares both servers' answers to /feed, every card and
/api/feed/sections: bodies byte for byte, header fields in order (date,
framing and timings aside). Exit status 0 when every answer matches; on the
first difference it stops with 1 and leaves both bodies in
.build/bench/responses/sqlite.*.body. Takes SESSION_IDLE and FEED_SQLITE_C
from the environment, as `make bench` does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from checks import bench
from checks import harness
from checks.harness import Failure, say

# The seeded demo users (Sources/FeedApp/Data/SeedData.swift), each with a name to escape.
DEMO_USERS = list(harness.DEMO_USERS.items())


def run() -> int:
    parser = argparse.ArgumentParser(description="feed-server and Benchmarks/feed_sqlite.c: the same answers")
    parser.add_argument("--binary", required=True, type=Path, help="the feed-server to compare with")
    options = parser.parse_args()
    settings = bench.Settings.from_environment()
    for binary in (options.binary, settings.feed_sqlite_c):
        if not binary.is_file():
            raise Failure(f"no executable at {binary} (the C server: make bench-feed-sqlite)")
    (bench.OUT / "responses").mkdir(parents=True, exist_ok=True)
    feed, c, _ = bench.start_sqlite_pair(settings, options.binary.resolve())
    for name, password in DEMO_USERS:
        cookie = harness.sign_in(feed.port, name, password)
        bench.check_same_answers(feed, c, cookie)
        say(f"{name}: the same answers to {', '.join(bench.SQLITE_CHECKED)}")
    return 0


if __name__ == "__main__":
    harness.main("check-feed-sqlite", run)
