#!/usr/bin/env python3
"""Runs the README's command blocks (```sh) in order, as a newcomer would
type them, and fails when one does not succeed.

`make run` and `make starter` are started in the background, each on a free
port, and waited for (they serve until stopped); every later command runs
against them, `localhost:8080` and `localhost:8081` read as those ports, each block in one bash with `set -e` (so a variable set on
one line is there on the next), curl failing on an HTTP error answer. `make
run` and `make starter` are stopped at the end. A command
named with --skip (e.g. `make test`, which CI runs anyway) is reported, not run.

Usage: check-readme.py [--skip COMMAND]... [README]
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
from checks.harness import free_port


def blocks(readme: Path) -> list[list[str]]:
    """Each ```sh block's commands, comments and blank lines dropped."""
    found = re.findall(r"```sh\n(.*?)```", readme.read_text(), re.S)
    return [[line for line in block.splitlines() if line.strip() and not line.lstrip().startswith("#")] for block in found]


def wait_for(port: int, server: subprocess.Popen, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and server.poll() is None:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return True
        except OSError:
            time.sleep(0.5)
    return False


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--skip", action="append", default=[], help="a command to report, not run")
    parser.add_argument("readme", nargs="?", default=str(ROOT / "README.md"))
    args = parser.parse_args()
    # The commands that serve until stopped: the port variable each takes, and the port the README names.
    serving = {"make run": ("PORT", 8080), "make starter": ("STARTER_PORT", 8081)}
    ports = {command: free_port() for command in serving}
    servers: list[subprocess.Popen] = []
    failures = 0
    # curl as written in the README, but an HTTP error answer fails the command (curl reads $CURL_HOME/.curlrc).
    curl_home = tempfile.mkdtemp(prefix="check-readme-")
    Path(curl_home, ".curlrc").write_text("fail-with-body\n")
    environment = dict(os.environ, CURL_HOME=curl_home)
    try:
        for number, block in enumerate(blocks(Path(args.readme)), 1):
            script = []
            for line in block:
                command = line.split("#")[0].strip() if line.lstrip().startswith("make ") else line
                if command in args.skip:
                    print(f"readme: block {number}: `{command}` skipped (run on its own)")
                elif command in serving:
                    variable, port = serving[command][0], ports[command]
                    print(f"readme: block {number}: `{command}` in the background, on port {port}")
                    server = subprocess.Popen(command.split() + [f"{variable}={port}"], cwd=ROOT, start_new_session=True,
                                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                    servers.append(server)
                    if not wait_for(port, server, 900):
                        print(f"readme: FAILED: `{command}` never served", file=sys.stderr)
                        return 1
                else:
                    for served, (_, written) in serving.items():
                        line = line.replace(f"localhost:{written}", f"localhost:{ports[served]}")
                    script.append(line)
            if script:
                print(f"readme: block {number}: " + " && ".join(script))
                done = subprocess.run(["bash", "-c", "set -euo pipefail\n" + "\n".join(script)], cwd=ROOT,
                                      capture_output=True, text=True, timeout=600, env=environment)
                if done.returncode != 0:
                    failures += 1
                    print(f"readme: FAILED (exit {done.returncode}):\n{done.stdout[-1500:]}{done.stderr[-1500:]}",
                          file=sys.stderr)
    finally:
        for server in servers:
            if server.poll() is None:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=30)
    print("readme: every command block ran" if failures == 0 else f"readme: {failures} block(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
