#!/usr/bin/env python3
"""`make dev-check`: `make dev`'s loop, checked as a developer would use it.

 1. Starts scripts/dev.py on a free port (the demo data in a temporary file) and reads
    the server's start token from its development stream (/_dev/reload,
    what the page's script listens to).
 2. A change under Public/ (styles.css touched): the server restarts with a
    new build, so a new token; the open stream was closed, and a tab would
    reload.
 3. A change that breaks the build (a Swift file with a syntax error, then
    removed): dev.py prints the compiler's error and the last good server
    answers with the same token; the fix brings a new one.
 4. In headless Chromium, signed in on /feed: the feed's heading is edited
    in its Swift source, and the open tab shows the new text by itself (the
    page's development script reloads it once the new server answers).
 5. Ctrl-C (SIGINT) stops dev.py and its server.

Every file it makes is removed, whatever happens.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
from checks import devtools
from checks.harness import DEMO_USERS, free_port

BROKEN = ROOT / "Sources/FeedApp/DevCheckBroken.swift"
EDITED = ROOT / "Sources/FeedApp/Feed/FeedPage.swift"
HEADING, NEW_HEADING = '"Your feed"', '"Your feed, edited"'


def open_browser(base: str, work: str):
    """Headless Chromium on the feed, signed in as the demo user: (its DevTools client, its process)."""
    debug_port = free_port()
    flags = ["--headless", f"--remote-debugging-port={debug_port}", "--remote-debugging-address=127.0.0.1",
             f"--user-data-dir={work}", "--no-first-run", "--disable-gpu", "--disable-extensions", "about:blank"]
    if os.geteuid() == 0:
        flags.insert(0, "--no-sandbox")
    chromium = subprocess.Popen([shutil.which("chromium") or "chromium"] + flags, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL, start_new_session=True)
    targets = devtools.wait_until("Chromium's DevTools endpoint", lambda: [
        t for t in json.loads(devtools.http_get(f"http://127.0.0.1:{debug_port}/json/list")) if t.get("type") == "page"])
    tab = devtools.DevTools(targets[0]["webSocketDebuggerUrl"])
    for domain in ("Page", "Runtime"):
        tab.send(domain + ".enable")
    tab.navigate(base + "/signin?next=/feed")
    tab.evaluate("""(() => { const form = document.querySelector('form[action="/signin"]');
        form.querySelector('[name=name]').value = 'alex'; form.querySelector('[name=password]').value = '%s';
        form.submit(); })()""" % DEMO_USERS["alex"])
    tab.wait_event("Page.loadEventFired")
    return tab, chromium


def token(port: int, timeout: float) -> str | None:
    """The start token the server's development stream names, or None if no server answers in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            connection.request("GET", "/_dev/reload")
            response = connection.getresponse()
            text = b""
            while b"\n\n" not in text.split(b"event: start", 1)[-1]:
                text += response.read1(4096)
            connection.close()
            return re.search(rb"event: start\ndata: (\w+)", text).group(1).decode()
        except (OSError, http.client.HTTPException, AttributeError):
            time.sleep(0.5)
    return None


def next_token(port: int, old: str | None) -> str | None:
    """The start token of the next server, once one other than `old`'s answers (a rebuild takes a while)."""
    deadline = time.monotonic() + 600
    new = None
    while time.monotonic() < deadline and new in (None, old):
        new = token(port, 600)
        time.sleep(0.3)
    return new


def main() -> int:
    port = free_port()
    log = tempfile.NamedTemporaryFile("w+", prefix="dev-check-", suffix=".log", delete=False)
    # A file, not memory: the session a tab signs in with must outlive a restart.
    database = tempfile.mkdtemp(prefix="dev-check-data-")
    dev = subprocess.Popen([sys.executable, "scripts/dev.py", "--port", str(port), "--database", f"sqlite:{database}/dev.sqlite",
                            "--quiet"], cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    failures = []

    def check(what: str, holds: bool) -> None:
        print(f"  {'ok  ' if holds else 'FAIL'}  {what}")
        if not holds:
            failures.append(what)

    try:
        first = token(port, 900)
        check("make dev serves, with its development stream", first is not None)
        os.utime(ROOT / "Public/styles.css")
        second = next_token(port, first)
        check("a change under Public/ restarts the server with a new build (a new start token)", second not in (None, first))

        BROKEN.write_text("let broken = \n")
        deadline = time.monotonic() + 600
        while time.monotonic() < deadline and "the build failed" not in Path(log.name).read_text():
            time.sleep(0.5)
        output = Path(log.name).read_text()
        check("a broken build prints the compiler's error", "DevCheckBroken.swift" in output and "error:" in output)
        check("the last good server goes on serving", token(port, 10) == second)

        BROKEN.unlink()
        third = next_token(port, second)
        check("the fix brings a new server", third not in (None, second))

        with tempfile.TemporaryDirectory(prefix="dev-check-chromium-") as work:
            tab, chromium = open_browser(f"http://127.0.0.1:{port}", work)
            try:
                check("the tab shows the feed, signed in", tab.evaluate("document.querySelector('h1')?.textContent") == "Your feed")
                tab.evaluate("window.devCheckMark = 1")
                EDITED.write_text(EDITED.read_text().replace(HEADING, NEW_HEADING, 1))
                deadline = time.monotonic() + 300
                heading = None
                while time.monotonic() < deadline and heading != "Your feed, edited":
                    time.sleep(0.5)
                    try:
                        heading = tab.evaluate("document.querySelector('h1')?.textContent")
                    except Exception:
                        heading = None  # between two documents
                check("an edited section's text shows in the open tab by itself", heading == "Your feed, edited")
                check("the tab was reloaded, not patched", tab.evaluate("window.devCheckMark === undefined") is True)
            finally:
                EDITED.write_text(EDITED.read_text().replace(NEW_HEADING, HEADING, 1))
                os.killpg(chromium.pid, signal.SIGKILL)
    finally:
        BROKEN.unlink(missing_ok=True)
        if NEW_HEADING in EDITED.read_text():
            EDITED.write_text(EDITED.read_text().replace(NEW_HEADING, HEADING, 1))
        os.killpg(dev.pid, signal.SIGINT)
        try:
            dev.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(dev.pid, signal.SIGKILL)
    check("Ctrl-C stops make dev and its server", dev.returncode is not None and token(port, 2) is None)
    shutil.rmtree(database, ignore_errors=True)
    if failures:
        print(f"dev-check: FAILED; make dev's output is in {log.name}")
        return 1
    os.unlink(log.name)
    print("dev-check: make dev rebuilds, restarts, and keeps the last good server through a broken build")
    return 0


if __name__ == "__main__":
    sys.exit(main())
