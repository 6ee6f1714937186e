#!/usr/bin/env python3
"""Live sections under `make bench`: the idle memory of an open page's event
stream (after a heartbeat, which every stream has had 16 s after it
opened), the time from a committed change to the last of 1,000 streams
receiving it, and how many times the changed card was rendered for them (the
section cache's stores: the rest were served as kept). Starts feed-server on
a fresh SQLite file, signs in, opens the streams from four loopback
addresses (the server allows 256 connections per address), measures
resident memory before and after, then posts one dismissal and times its
fan-out. With --shared, 1,000 streams of the bank's notices instead, a card
every customer shares, half of them alex's and half sam's: a notice inserted
from outside the server (another SQLite connection, as `sqlite3` would) is
timed from its commit to the last stream, through the server's watch on
other writers. Prints one line; writes .build/bench/live.json (with
--shared, live-shared.json; with another --streams, live-COUNT.json).

Usage: live-bench.py --binary PATH --public DIR [--streams 1000] [--shared]
"""
import argparse
import json
import os
import re
import selectors
import struct
import shutil
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checks import harness


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--public", required=True)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--shared", action="store_true", help="measure the shared card's fan-out instead")
    args = parser.parse_args()
    database = Path(tempfile.mkdtemp(prefix="live-bench-")) / "live.sqlite"
    server = subprocess.Popen([args.binary, "--port", "0", "--public", args.public, "--database", f"sqlite:{database}", "--quiet",
                               "--drain", "0s", "--live-streams", str(args.streams), "--live-streams-per-user", str(args.streams),
                               "--metrics-port", "0"],
                              stderr=subprocess.PIPE, text=True)
    try:
        port = metrics_port = None
        while port is None:
            line = server.stderr.readline()
            if not line:
                print("live-bench: the server did not start", file=sys.stderr)
                return 1
            if match := re.search(r"metrics on http://127\.0\.0\.1:(\d+)/", line):
                metrics_port = int(match.group(1))
            if match := re.search(r"listening on http://127\.0\.0\.1:(\d+)/", line):
                port = int(match.group(1))

        def renders():
            """Sections rendered and kept so far: the cache's stores."""
            text = harness.request(metrics_port, "/metrics", timeout=10).text
            found = re.search(r"^sectional_section_cache_stores_total (\d+)", text, re.MULTILINE)
            return int(found.group(1)) if found else 0
        cookie = harness.sign_in(port, "alex", harness.DEMO_USERS["alex"])
        page = harness.request(port, "/feed?stream=0", cookie=cookie, timeout=10).text
        action, token = re.search(r'action="(/feed/alerts/\d+/dismiss)"[^>]*><input type="hidden" name="token" value="([0-9a-f]+)"', page).groups()
        before = harness.rss_kb(server.pid)

        selector = selectors.DefaultSelector()
        streams = {}

        def open_streams(target, cookies, count):
            """`count` streams of `target`, each with the next of `cookies` in turn; returns their sockets."""
            opened = []
            for index in range(count):
                head = (f"GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                        f"Cookie: {cookies[index % len(cookies)]}\r\n\r\n").encode()
                sock = socket.socket()
                # At most 200 from one address: the server allows 256 connections an address.
                sock.bind((f"127.0.0.{1 + index % max(4, -(-count // 200))}", 0))
                sock.connect(("127.0.0.1", port))
                sock.sendall(head)
                sock.setsockopt(socket.SOL_SOCKET, SO_TIMESTAMPNS, 1)
                sock.setblocking(False)
                streams[sock] = b""
                selector.register(sock, selectors.EVENT_READ)
                opened.append(sock)
            return opened

        def read_until(marker, deadline, among=None):
            """Reads the streams until each has `marker`. Returns those that did
            not, and when each that did got it: (the kernel's receive time, the
            time this client read it), both wall-clock seconds."""
            waiting = {s for s, data in streams.items() if marker not in data and (among is None or s in among)}
            arrived = {}
            while waiting and time.monotonic() < deadline:
                for key, _ in selector.select(timeout=0.2):
                    data, at = received(key.fileobj)
                    streams[key.fileobj] += data
                    if key.fileobj in waiting and marker in streams[key.fileobj]:
                        waiting.discard(key.fileobj)
                        arrived[key.fileobj] = (at, time.time())
            return waiting, arrived

        if args.shared:
            shared = shared_fan_out(args, port, cookie, database, open_streams, read_until, renders)
            with open(".build/bench/live-shared.json", "w") as out:
                json.dump(shared, out, indent=2)
            print(f"live sections, shared: {shared['streams']} streams of the bank's notices (two users); a notice committed "
                  f"outside the server reached the last of them in {shared['change_to_last_stream_ms']} ms "
                  f"({shared['streams_missed']} missed), rendering the card {shared['cards_rendered_for_the_change']} times")
            return 0 if not shared["streams_missed"] else 1
        open_streams("/feed/live", [cookie], args.streams)
        missing, _ = read_until(b"retry: 1000", time.monotonic() + 30)
        if missing:
            print(f"live-bench: {len(missing)} of {args.streams} streams did not open", file=sys.stderr)
            return 1
        # Idle means after a heartbeat: each stream checks its session at its first (spread over
        # the 15 s interval), and what that takes stays with it.
        time.sleep(HEARTBEAT_SECONDS + 1)
        after = harness.rss_kb(server.pid)
        rendered_before = renders()
        start = time.time()
        status = harness.request(port, action, cookie=cookie, method="POST", body=f"token={token}&back=/feed", timeout=10,
                                 headers={"Content-Type": "application/x-www-form-urlencoded"}).status
        missing, arrived = read_until(b"event: section", time.monotonic() + 30)
        fan_out, read_out = last_arrival(arrived, start)
        rendered = renders() - rendered_before
        result = {"streams": args.streams, "rss_kb_before": before, "rss_kb_with_streams": after,
                  "kb_per_idle_stream": round((after - before) / args.streams, 1),
                  "change_to_last_stream_ms": fan_out, "change_to_last_stream_read_ms": read_out, "streams_missed": len(missing),
                  "write_status": status, "cards_rendered_for_the_change": rendered}
        os.makedirs(".build/bench", exist_ok=True)
        with open(".build/bench/live.json" if args.streams == 1000 else f".build/bench/live-{args.streams}.json", "w") as out:
            json.dump(result, out, indent=2)
        print(f"live sections: {args.streams} open streams, {result['kb_per_idle_stream']} kB each idle "
              f"(resident {before} -> {after} kB); a committed change reached the last of them in "
              f"{result['change_to_last_stream_ms']} ms ({read_out} ms as this client read them; {len(missing)} missed), "
              f"rendering the changed card {rendered} times")
        return 0 if not missing and status == 303 else 1
    finally:
        server.terminate()
        server.wait(timeout=15)
        shutil.rmtree(database.parent, ignore_errors=True)


# LiveStream.heartbeat: every open stream has had one after this long.
HEARTBEAT_SECONDS = 15


def shared_fan_out(args, port, alex, database, open_streams, read_until, renders):
    """One notice, inserted from another connection to the file, to streams of two users that show the notices."""
    sam = harness.sign_in(port, "sam", harness.DEMO_USERS["sam"])
    opened = set(open_streams("/feed/live?sections=notices", [alex, sam], args.streams))
    missing, _ = read_until(b"retry: 1000", time.monotonic() + 30, among=opened)
    if missing:
        return {"streams": args.streams, "streams_missed": len(missing), "change_to_last_stream_ms": None,
                "cards_rendered_for_the_change": None}
    rendered_before = renders()
    with sqlite3.connect(database, timeout=10) as outside:
        outside.execute("INSERT INTO notices (board, title, body, posted_on) VALUES ('bank', 'Branch hours', 'Open on Saturdays.', '2026-12-05')")
    committed = time.time()
    missing, arrived = read_until(b"event: section", time.monotonic() + 30, among=opened)
    fan_out, read_out = last_arrival(arrived, committed)
    return {"streams": args.streams, "streams_missed": len(missing), "change_to_last_stream_ms": fan_out,
            "change_to_last_stream_read_ms": read_out, "cards_rendered_for_the_change": renders() - rendered_before}


# The kernel's receive time of each read (SO_TIMESTAMPNS, wall-clock): when a
# stream's bytes reached this client. This one Python thread reads 10,000
# sockets one after another, on the cores the server uses, so the time it
# reads the last of them is later by its own work, tens of milliseconds.
SO_TIMESTAMPNS = getattr(socket, "SO_TIMESTAMPNS", 35)


def received(sock):
    """One read of `sock`: its bytes, and when the kernel received them."""
    data, ancillary, _, _ = sock.recvmsg(65536, socket.CMSG_SPACE(16))
    for level, kind, payload in ancillary:
        if level == socket.SOL_SOCKET and kind == SO_TIMESTAMPNS and len(payload) >= 16:
            seconds, nanoseconds = struct.unpack("qq", payload[:16])
            return data, seconds + nanoseconds / 1e9
    return data, time.time()


def last_arrival(arrived, start):
    """Milliseconds from `start` to the last stream's arrival: by the kernel's
    receive time, and as this client read it; (None, None) when none arrived."""
    if not arrived:
        return None, None
    return (round((max(kernel for kernel, _ in arrived.values()) - start) * 1000, 1),
            round((max(read for _, read in arrived.values()) - start) * 1000, 1))


if __name__ == "__main__":
    sys.exit(main())
