#!/usr/bin/env python3
"""`make dev`: build, serve in development, and on every change under
Sources/ or Public/ build again and restart, while the open tab reloads
itself (the page's development script notices the new server).

A build that fails prints the compiler's errors and leaves the last good
server running; the next change tries again. A server that dies of a trap
(its backtrace printed) is started again. Ctrl-C stops both.

Usage: scripts/dev.py [--port PORT] [SERVER FLAGS...]
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WATCHED = [ROOT / "Sources", ROOT / "Public"]
SWIFT = os.environ.get("SWIFT", "swift")


def say(message: str) -> None:
    print(f"dev: {message}", file=sys.stderr, flush=True)


def snapshot() -> dict[str, float]:
    """Every watched file's modification time."""
    times = {}
    for folder in WATCHED:
        for directory, _, files in os.walk(folder):
            for name in files:
                path = os.path.join(directory, name)
                try:
                    times[path] = os.stat(path).st_mtime
                except FileNotFoundError:
                    pass
    return times


def build() -> bool:
    say("building")
    done = subprocess.run([SWIFT, "build", "--product", "feed-server"], cwd=ROOT, capture_output=True, text=True)
    if done.returncode != 0:
        errors = [line for line in (done.stdout + done.stderr).splitlines() if "error:" in line or line.startswith(" ")]
        print("\n".join(errors[-40:]) or done.stdout[-3000:] + done.stderr[-3000:], file=sys.stderr, flush=True)
        say("the build failed: the last good server goes on serving; save a fix to try again")
    return done.returncode == 0


def binary() -> Path:
    path = subprocess.run([SWIFT, "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True).stdout.strip()
    return Path(path) / "feed-server"


class Server:
    def __init__(self, port: int, flags: list[str]):
        self.port, self.flags, self.process = port, flags, None

    def start(self) -> None:
        self.process = subprocess.Popen([str(binary()), "--port", str(self.port), "--environment", "development"] + self.flags,
                                        cwd=ROOT)
        say(f"serving http://localhost:{self.port}/feed (pid {self.process.pid})")

    def stop(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=3)
            except subprocess.TimeoutExpired:
                self.process.kill()  # a development database is safe to stop hard: SQLite's journal
                self.process.wait()
        self.process = None

    def died_of_signal(self) -> bool:
        return self.process is not None and self.process.poll() is not None and self.process.returncode < 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8080")))
    args, flags = parser.parse_known_args()
    server = Server(args.port, flags)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    seen = snapshot()
    try:
        if build():
            server.start()
        while True:
            time.sleep(0.4)
            if server.died_of_signal():
                say(f"the server died of signal {-server.process.returncode} (its backtrace is above); starting it again")
                server.start()
            if snapshot() == seen:
                continue
            time.sleep(0.2)  # an editor's save may touch several files
            before, seen = seen, snapshot()
            changed = sorted(set(before) ^ set(seen) | {path for path in seen if before.get(path) != seen[path]})
            say(f"changed: {', '.join(os.path.relpath(path, ROOT) for path in changed[:3])}"
                + (f" and {len(changed) - 3} more" if len(changed) > 3 else ""))
            if build():
                server.stop()
                server.start()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
