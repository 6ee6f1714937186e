#!/usr/bin/env python3
"""The most live streams one server takes, with a normal client's p99 beside
them. Starts feed-server on a fresh SQLite file allowing `--target` streams
(50,000 by default), measures a normal client's `/feed` latency (a new
connection a request, scripts/normal-client.py), then opens streams of one
user from holder processes, each from its own loopback addresses (the
server allows 256 connections an address), until the target is reached or
the server refuses, and measures the normal client again with the streams
open. Every process holds a descriptor a stream, so the hard limit on open
files (`ulimit -Hn`) bounds what one machine can show: the result names it.
Prints one line; writes .build/bench/live-most.json.

Usage: live-most.py --binary PATH --public DIR [--target 50000] [--seconds 8]
"""
import argparse
import json
import os
import re
import resource
import selectors
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checks import harness

# Streams one holder process opens at most: below the descriptors each process may hold.
PER_HOLDER = 15_000
# Connections the server allows from one address.
PER_ADDRESS = 200


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--public", required=True)
    parser.add_argument("--target", type=int, default=50_000)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--hold", nargs=4, metavar=("PORT", "COUNT", "FIRST_ADDRESS", "COOKIE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hold:
        return hold(int(args.hold[0]), int(args.hold[1]), int(args.hold[2]), args.hold[3])
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    database = Path(tempfile.mkdtemp(prefix="live-most-")) / "live.sqlite"
    log = database.parent / "server.log"
    server = harness.start_server("feed-server", [
        args.binary, "--port", "0", "--public", args.public, "--database", f"sqlite:{database}", "--quiet", "--drain", "0s",
        "--live-streams", str(args.target), "--live-streams-per-user", str(args.target)], log)
    port = server.port
    holders = []
    try:
        cookie = harness.sign_in(port, "alex", harness.DEMO_USERS["alex"])
        harness.request(port, "/feed?stream=0", cookie=cookie, timeout=10)
        without = normal_client(port, cookie, args.seconds)
        opened, refused, first_address = 0, 0, 2
        while opened < args.target and refused == 0:
            count = min(PER_HOLDER, args.target - opened)
            holder = subprocess.Popen([sys.executable, "scripts/check.py", "live-most", "--binary", args.binary, "--public", args.public,
                                       "--hold", str(port), str(count), str(first_address), cookie],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            holders.append(holder)
            report = json.loads(holder.stdout.readline() or '{"opened": 0, "refused": 1}')
            opened += report["opened"]
            refused += report["refused"]
            first_address += -(-count // PER_ADDRESS)
        with_streams = normal_client(port, cookie, args.seconds)
        server_limit = descriptor_limit(server.process.pid)
        warning = next((line.strip() for line in log.read_text(errors="replace").splitlines() if "open files are allowed" in line), None)
        result = {"target": args.target, "opened": opened, "refused_or_failed": refused,
                  "hard_limit_on_open_files": hard, "server_open_files_allowed": server_limit, "server_warning": warning,
                  "normal_client_without": without, "normal_client_with": with_streams,
                  "p99_ratio": round(with_streams["p99_ms"] / without["p99_ms"], 2)
                  if with_streams.get("p99_ms") and without.get("p99_ms") else None}
        os.makedirs(".build/bench", exist_ok=True)
        with open(".build/bench/live-most.json", "w") as out:
            json.dump(result, out, indent=2)
        print(f"live sections, most streams: {opened} of {args.target} opened ({refused} refused or failed; open files allowed: "
              f"{server_limit} to the server, hard limit {hard}); a normal client's /feed p99 {without['p99_ms']} ms without them, "
              f"{with_streams['p99_ms']} ms with them ({result['p99_ratio']}x)")
        return 0
    finally:
        for holder in holders:
            holder.stdin.close()
        for holder in holders:
            holder.wait(timeout=60)
        server.stop(30)
        shutil.rmtree(database.parent, ignore_errors=True)


def normal_client(port: int, cookie: str, seconds: float) -> dict:
    """scripts/normal-client.py's summary: /feed, a new connection a request, 20 ms apart."""
    run = subprocess.run([sys.executable, "scripts/normal-client.py", str(port), str(seconds), "/feed", "127.0.0.1", "5"],
                         capture_output=True, text=True, timeout=seconds + 60, env=os.environ | {"SECTIONAL_COOKIE": cookie})
    return json.loads(run.stdout)


def descriptor_limit(pid: int) -> int | None:
    """The soft limit on open files of process `pid`, from /proc."""
    for line in Path(f"/proc/{pid}/limits").read_text().splitlines():
        if line.startswith("Max open files"):
            return int(line.split()[3])
    return None


def hold(port: int, count: int, first_address: int, cookie: str) -> int:
    """Opens `count` streams from 127.0.0.FIRST_ADDRESS on (PER_ADDRESS an
    address), reports how many opened, and keeps them until stdin closes."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    selector = selectors.DefaultSelector()
    received, refused = {}, 0
    for index in range(count):
        address = first_address + index // PER_ADDRESS
        try:
            sock = socket.socket()
            sock.settimeout(10)
            sock.bind((f"127.{address // 65_536 % 256}.{address // 256 % 256}.{address % 256}", 0))
            sock.connect(("127.0.0.1", port))
            sock.sendall((f"GET /feed/live HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                          f"Cookie: {cookie}\r\n\r\n").encode())
        except OSError:
            refused = count - index
            break
        sock.setblocking(False)
        received[sock] = b""
        selector.register(sock, selectors.EVENT_READ)
    waiting, deadline = set(received), time.monotonic() + 60
    while waiting and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            try:
                data = key.fileobj.recv(65536)
            except OSError:  # reset: the server closed a connection it would not take
                data = b""
            received[key.fileobj] += data
            if not data or b"retry: 1000" in received[key.fileobj] or not received[key.fileobj].startswith(b"HTTP/1.1 200"):
                waiting.discard(key.fileobj)
                selector.unregister(key.fileobj)
    opened = sum(1 for data in received.values() if b"retry: 1000" in data)
    print(json.dumps({"opened": opened, "refused": refused + len(received) - opened}), flush=True)
    sys.stdin.read()
    for sock in received:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
