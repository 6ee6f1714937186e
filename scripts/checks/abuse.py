#!/usr/bin/env python3
"""`make abuse`: slow and abusive clients against a running release
feed-server, on loopback only, each attack bounded in time.

 1. Builds feed-server (release) and starts it on a free port of 127.0.0.1
    with the default ServerConfiguration (see ServerConfiguration.swift for
    the limits and why), and signs in (POST /signin as a demo user;
    --session-idle SESSION_IDLE, 12h): the normal client and slowhttptest
    send that session's cookie, so that /feed is the page, not a 303 to
    /signin (a few hundred bytes: no load for a slow reader).
 2. Baseline: the normal client (scripts/normal-client.py) fetches /feed in a
    loop, one new connection per request, for 5 s.
 3. For each attack, slowhttptest opens ATTACK_CONNECTIONS connections from
    127.0.0.1 for ATTACK_SECONDS: slowloris (headers trickled, one field every
    10 s) and slow read (a tiny receive window, 32 bytes read every 5 s,
    each request repeated 3 times on its connection). Once the attack is at
    full strength, the normal client runs again for NORMAL_SECONDS, from
    127.0.0.2: a different client address, so that the server's per-client
    connection limit, which is what stops one attacker from taking every
    connection, does not count the normal client among the attacker's
    connections (as it would not count a real visitor). Its p99 must stay
    under P99_LIMIT_MS and no request of it may fail.
 4. Then the attacker is frozen (SIGSTOP): its connections stay open but
    silent, like clients that vanished without closing. The connections
    the server holds (its TCP sockets, less the listening one) must
    fall back to idle (none) by its own timeout, within IDLE_DEADLINE
    seconds, and the server must still answer. The attacker is then killed.
 5. Many addresses: scripts/head-holders.py holds 220 connections from each
    of 127.0.0.2 to 127.0.0.6 (each address under the per-client limit, 1,100
    in all, past the connection limit), none of which ever finishes its
    request head, reconnecting whenever the server closes one. The normal
    client, from 127.0.0.7, must be served throughout: the server closes
    connections whose head is overdue and, when full, the one that has
    waited longest for a head, to make room. Then the server must return
    to idle once the attacker stops.
 6. Stuck readers: seven live streams that never read while alerts change
    3,000 times; resident memory may grow at most 4 MB, and the streams must
    close (the server ends a stream whose reader took nothing for two
    heartbeats of 15 s) within 45 s plus IDLE_DEADLINE.
 7. Prints a table; exits 1 when anything did not hold.

Every process it starts is stopped on exit, failure or interrupt included.

Environment: ATTACK_CONNECTIONS (1000), ATTACK_SECONDS (30), NORMAL_SECONDS
(the normal client's run, default ATTACK_SECONDS - 12, at least 8),
P99_LIMIT_MS (100), IDLE_DEADLINE (25 s), RELEASE_BUILD, HOSTILE_SCRATCH (a
--scratch-path for the release build), SIGN_IN_NAME and SIGN_IN_PASSWORD (a
demo user), SESSION_IDLE (12h).
"""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from checks import harness
from checks.harness import Server, say

OUT = Path(".build/abuse")


@dataclass
class Settings:
    attack_connections: int
    attack_seconds: int
    normal_seconds: int
    p99_limit_ms: float
    idle_deadline: int
    release_build: str
    scratch: str | None
    demo: harness.DemoUser

    @classmethod
    def from_environment(cls) -> Settings:
        attack_seconds = harness.env_int("ATTACK_SECONDS", 30)
        return cls(
            attack_connections=harness.env_int("ATTACK_CONNECTIONS", 1000),
            attack_seconds=attack_seconds,
            normal_seconds=harness.env_int("NORMAL_SECONDS", attack_seconds - 12 if attack_seconds > 20 else 8),
            p99_limit_ms=float(harness.env_text("P99_LIMIT_MS", "100")),
            # The idle timeout of ServerConfiguration's default, plus a margin for the sweep.
            idle_deadline=harness.env_int("IDLE_DEADLINE", 25),
            release_build=harness.env_text("RELEASE_BUILD", harness.DEFAULT_RELEASE_BUILD),
            scratch=harness.env_text("HOSTILE_SCRATCH", "") or None,
            demo=harness.DemoUser.from_environment(),
        )


def raise_descriptor_limit() -> None:
    """1,000 attack sockets, and as many on the server's side (children inherit the limit)."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (8192, max(hard, 8192)))
    except (ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Abuse:
    """The server under attack, its session, the table's rows, and whether anything failed."""

    def __init__(self, settings: Settings, server: Server, cookie: str):
        self.settings = settings
        self.server = server
        self.cookie = cookie
        self.rows: dict[str, str] = {}
        self.failed = False

    def fail(self, message: str) -> None:
        self.failed = True
        say(f"FAILED: {message}")

    def connections(self) -> int:
        """The connections the server holds (its TCP sockets, the listening
        one aside), counted in the process: see harness.tcp_connections."""
        return harness.tcp_connections(self.server.pid)

    def wait_for_idle(self, deadline: int | None = None) -> tuple[int, int]:
        """Waits up to `deadline` (IDLE_DEADLINE) seconds for the server to hold
        no connection: (connections left, seconds waited)."""
        start = time.monotonic()
        deadline = deadline or self.settings.idle_deadline
        while (left := self.connections()) > 0 and time.monotonic() - start < deadline:
            time.sleep(1)
        return left, round(time.monotonic() - start)

    def run_normal(self, name: str, seconds: int, source: str = "127.0.0.2") -> None:
        """The well-behaved client, for `seconds`, from its own address; its summary goes to OUT/normal-NAME.json."""
        output = OUT / f"normal-{name}.json"
        with open(output, "w") as out:
            subprocess.run([sys.executable, "scripts/normal-client.py", str(self.server.port), str(seconds), "/feed",
                            source], stdout=out, env=dict(os.environ, SECTIONAL_COOKIE=self.cookie))

    def check_normal(self, name: str) -> None:
        """No failed request, and p99 under the limit."""
        path = OUT / f"normal-{name}.json"
        try:
            result = json.loads(path.read_text())
        except (OSError, ValueError):
            self.fail(f"{name}: the normal client wrote no summary ({path})")
            self.rows[name] = "no summary"
            return
        p99 = result["p99_ms"]
        self.rows[name] = (f"{result['requests']} requests, {result['failures']} failed, p50 {result['p50_ms']} ms, "
                           f"p99 {p99} ms, max {result['max_ms']} ms")
        if result["failures"]:
            self.fail(f"{name}: {result['failures']} of the normal client's requests failed: {result['errors']}")
        if p99 is None or not p99 < self.settings.p99_limit_ms:
            self.fail(f"{name}: p99 {p99} ms is not under {self.settings.p99_limit_ms:g} ms")

    def still_answers(self, name: str) -> None:
        if not harness.healthy(self.server.port):
            self.fail(f"{name}: the server no longer answers")

    def attack(self, name: str, *arguments: str) -> None:
        """One slowhttptest attack at full strength, the normal client beside
        it, then the attacker frozen and the server back to idle on its own."""
        s = self.settings
        say(f"{name}: {s.attack_connections} connections for {s.attack_seconds}s")
        log = OUT / f"slowhttptest-{name}.log"
        with open(log, "wb") as output:
            # It would run longer than ATTACK_SECONDS: it is frozen and then killed below.
            attacker = harness.spawn(["slowhttptest", *arguments, "-c", str(s.attack_connections), "-r", "200",
                                      "-l", str(s.attack_seconds + 60), "-p", "3", "-j", self.cookie,
                                      "-u", f"http://127.0.0.1:{self.server.port}/feed"],
                                     stdout=output, stderr=subprocess.STDOUT)
        time.sleep(7)  # 1,000 connections at 200 a second, and a margin
        peak = self.connections()
        say(f"{name}: the server holds {peak} connections; normal client from 127.0.0.2 for {s.normal_seconds}s")
        self.run_normal(name, s.normal_seconds)
        during = self.connections()
        # Freeze the attacker: its connections stay open but fall silent, as a
        # client that vanished without closing would. Only the server's own
        # timeout can free them now. (slowhttptest may have ended already: the
        # head deadline closed every slowloris connection.)
        if attacker.poll() is None:
            attacker.send_signal(signal.SIGSTOP)
        else:
            say(f"{name}: the attacker had already ended, the server having closed its connections")
        report = attacker_report(log)
        left, waited = self.wait_for_idle()
        if left:
            self.fail(f"{name}: {left} connections still open {s.idle_deadline}s after the attacker froze")
        attacker.kill()
        harness.stop(attacker)
        self.still_answers(name)
        if not self.server.alive():
            self.fail(f"{name}: the server died")
        self.check_normal(name)
        self.rows[name] += (f" | server connections: {peak} at full attack, {during} at its end, none {waited}s "
                            f"after the attacker froze | attacker:{report}")

    def many_addresses(self) -> None:
        """Unfinished heads from five addresses, 1,100 connections: past the connection limit."""
        s = self.settings
        say(f"many-addresses: 5 x 220 unfinished heads for {s.attack_seconds}s")
        output_path = OUT / "head-holders.json"
        with open(output_path, "w") as output:
            holders = harness.spawn([sys.executable, "scripts/head-holders.py", str(self.server.port),
                                     str(s.attack_seconds), "5", "220"], stdout=output)
        time.sleep(8)  # 1,100 connections at 200 a second
        peak = self.connections()
        say(f"many-addresses: the server holds {peak} connections; normal client from 127.0.0.7 for "
            f"{s.normal_seconds}s")
        self.run_normal("many-addresses", s.normal_seconds, "127.0.0.7")
        if holders.wait() != 0:
            self.fail("many-addresses: the attacker failed")
        harness.stop(holders)
        left, waited = self.wait_for_idle()
        if left:
            self.fail(f"many-addresses: {left} connections still open {s.idle_deadline}s after the attack")
        self.still_answers("many-addresses")
        self.check_normal("many-addresses")
        self.rows["many-addresses"] += (f" | server connections: {peak} at full attack, none {waited}s after it | "
                                        f"attacker: {output_path.read_text().strip()}")


    def stuck_readers(self) -> None:
        """Live streams whose readers never read, while alerts change 3,000
        times: each stream must hold the newest card, not a backlog (seven
        such streams once took the server from 27 to 53 MB), and end once it
        has taken nothing for two heartbeats."""
        streams, changes = 7, 3_000
        port, cookie = self.server.port, self.cookie
        form = r'action="({})"[^>]*><input type="hidden" name="token" value="([0-9a-f]+)"'
        page = harness.request(port, "/feed?stream=0", cookie=cookie).text
        dismiss = re.search(form.format(r"/feed/alerts/\d+/dismiss"), page).groups()
        post = {"cookie": cookie, "method": "POST", "headers": {"Content-Type": "application/x-www-form-urlencoded"}}
        harness.request(port, dismiss[0], body=f"token={dismiss[1]}&back=/feed", **post)
        restore = re.search(form.format("/feed/alerts/restore"), harness.request(port, "/feed?stream=0", cookie=cookie).text).groups()
        before = harness.rss_kb(self.server.pid)
        sockets = []
        for _ in range(streams):
            stuck = socket.socket()
            stuck.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # never read: the window fills at once
            stuck.connect(("127.0.0.1", port))
            stuck.sendall(f"GET /feed/live HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: {cookie}\r\n\r\n".encode())
            sockets.append(stuck)
        say(f"stuck-readers: {streams} live streams that never read; {changes:,} changes to their alerts")
        refused = 0
        halfway = before
        for index in range(changes):
            action = restore if index % 2 else dismiss
            if harness.request(port, action[0], body=f"token={action[1]}&back=/feed", **post).status != 303:
                refused += 1
            if index == changes // 2:
                halfway = harness.rss_kb(self.server.pid)
        if refused:
            self.fail(f"stuck-readers: {refused:,} of the {changes:,} changes were not made (not a 303)")
        after = harness.rss_kb(self.server.pid)
        growth = after - before
        # The first changes fill bounded caches (the streams' events, 4 MiB; the cards): about 7 MB
        # whether 1,500 or 9,000 changes are made. A backlog would grow with every change: the
        # second half of the changes must add next to nothing.
        if after - halfway > 1_024:
            self.fail(f"stuck-readers: resident memory grew {after - halfway:,} kB over the last {changes - changes // 2:,} "
                      f"changes with {streams} streams that never read ({growth:,} kB in all)")
        # Two heartbeats of 15 s without a byte taken, then libmicrohttpd's 15 s idle timeout closes the socket.
        deadline = 2 * 15 + 15 + self.settings.idle_deadline
        left, waited = self.wait_for_idle(deadline)
        if left:
            self.fail(f"stuck-readers: {left} connections still open {deadline}s after the changes")
        for stuck in sockets:
            stuck.close()
        self.still_answers("stuck-readers")
        self.rows["stuck-readers"] = (f"{streams} streams never read, {changes:,} changes | resident {before:,} kB before, "
                                      f"{halfway:,} kB halfway, {after:,} kB after (+{growth:,}); the streams closed {waited}s later")


def attacker_report(log: Path) -> str:
    """slowhttptest's last status block: how many of its connections were
    ever connected, and how many it still held when it stopped. (Its "service
    available" probe comes from 127.0.0.1 too, so the per-client limit
    refuses it like any further attacking connection.)"""
    text = re.sub(r"\x1b\[[0-9;]*m", "", log.read_text(errors="replace").replace("\r", "\n"))
    lines = [re.sub(r"[ \t]+", " ", line) for line in text.splitlines()
             if re.match(r"^\s*(connected|closed|error|service available):", line)]
    return ";".join(lines[-4:])


def main() -> int:
    settings = Settings.from_environment()
    harness.ensure_tools(["slowhttptest"])
    OUT.mkdir(parents=True, exist_ok=True)
    raise_descriptor_limit()
    say("building feed-server (release)")
    binary = harness.build_release(settings.release_build, OUT / "build.log", scratch=settings.scratch) / "feed-server"
    server = harness.start_server("feed-server", [str(binary), "--port", "0", "--quiet", "--public", "Public",
                                                  "--database", "memory:", "--session-idle", settings.demo.session_idle,
                                                  # Its readers' alerts change 3,000 times, from one address.
                                                  "--drain", "0s", "--post-limit", "0"], OUT / "server.log", timeout=10,
                                 stdout_to_log=True)
    cookie = settings.demo.sign_in(server.port)
    say(f"feed-server pid {server.pid} on 127.0.0.1:{server.port}, signed in as {settings.demo.name}")
    abuse = Abuse(settings, server, cookie)

    say("baseline: normal client alone for 5 s")
    abuse.run_normal("baseline", 5)
    abuse.check_normal("baseline")
    abuse.attack("slowloris", "-H", "-i", "10", "-x", "24", "-t", "GET")
    abuse.attack("slow-read", "-X", "-k", "3", "-w", "512", "-y", "1024", "-n", "5", "-z", "32")
    abuse.many_addresses()
    abuse.stuck_readers()

    print(f"\n{'run':<14} normal client (127.0.0.2; 127.0.0.7 for many-addresses) | server")
    for name in ("baseline", "slowloris", "slow-read", "many-addresses", "stuck-readers"):
        print(f"{name:<14} {abuse.rows.get(name, 'not run')}")
    if abuse.failed:
        print("abuse: FAILED")
    else:
        print(f"abuse: held: p99 under {settings.p99_limit_ms:g} ms, no failed request, back to idle")
    return 1 if abuse.failed else 0


if __name__ == "__main__":
    harness.main("abuse", main)
