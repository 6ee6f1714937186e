#!/usr/bin/env python3
"""`make soak`: a long mixed run against a release feed-server on loopback,
then a short run under valgrind's memcheck for leaks.

 1. Builds feed-server (release) and starts it on a free port (--quiet),
    and signs in (POST /signin as a demo user): every request of every step
    carries that session's cookie, each server signed in on its own, with
    --session-idle SESSION_IDLE (12h) so that no session ends mid-run.
 2. Warm-up: WARMUP requests (100,000, or half of SOAK_REQUESTS when that is
    smaller) of the mix in scripts/soak.lua with wrk, while
    scripts/head-client.py sends HEAD requests beside it (until the end of
    step 3); then the server's resident size (VmRSS) is read.
 3. The rest of SOAK_REQUESTS, with VmRSS sampled every 2 s; then VmRSS again.
    Holds when: no 5xx, no status outside the mix's own (200, 304, 400, 404,
    405: signed in, nothing in it answers 303, so a 303 to /signin or a 401
    is a lost session), no socket error, the server still alive, and VmRSS
    at the end under 2 MB (RSS_LIMIT_KB) above VmRSS after the warm-up.
 4. Leaks: the same binary under `valgrind --tool=memcheck --leak-check=full`
    answers LEAK_REQUESTS requests of the mix, is stopped with SIGTERM (a
    graceful stop, as in production), and must report no definitely lost
    block.
 5. Cancellation: a server with `--simulate credit-score=hang` takes
    STORM_REQUESTS clients that leave mid-page (scripts/disconnect-storm.py),
    in two storms; VmRSS after the second may be at most RSS_LIMIT_KB above
    VmRSS after the first: a cancelled load must leave nothing behind.
 6. Prints a summary table; exits 1 when anything did not hold.

Every process it starts is stopped on exit, failure or interrupt included.

Environment: SOAK_REQUESTS (1,000,000), WARMUP (requests, see step 2),
SOAK_CONNECTIONS (32), SOAK_THREADS (wrk threads, 2), LEAK_REQUESTS (3,000),
STORM_REQUESTS (10,000 per storm), RSS_LIMIT_KB (2048), RELEASE_BUILD,
HOSTILE_SCRATCH (a --scratch-path for the release build), SIGN_IN_NAME and
SIGN_IN_PASSWORD (a demo user), SESSION_IDLE (12h).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from checks import harness
from checks.harness import Failure, Server, say

OUT = Path(".build/soak")
# Signed in, nothing in the mix answers 303 or 401: either would be a lost session.
EXPECTED_STATUSES = {200, 304, 400, 404, 405}


@dataclass
class Settings:
    soak_requests: int
    warmup: int
    connections: int
    threads: int
    leak_requests: int
    rss_limit_kb: int
    storm_requests: int
    release_build: str
    scratch: str | None
    demo: harness.DemoUser

    @classmethod
    def from_environment(cls) -> Settings:
        soak = harness.env_int("SOAK_REQUESTS", 1_000_000)
        settings = cls(
            soak_requests=soak,
            warmup=harness.env_int("WARMUP", min(soak // 2, 100_000)),
            connections=harness.env_int("SOAK_CONNECTIONS", 32),
            threads=harness.env_int("SOAK_THREADS", 2),
            leak_requests=harness.env_int("LEAK_REQUESTS", 3000),
            rss_limit_kb=harness.env_int("RSS_LIMIT_KB", 2048),
            storm_requests=harness.env_int("STORM_REQUESTS", 10_000),
            release_build=harness.env_text("RELEASE_BUILD", harness.DEFAULT_RELEASE_BUILD),
            scratch=harness.env_text("HOSTILE_SCRATCH", "") or None,
            demo=harness.DemoUser.from_environment(),
        )
        if not (settings.soak_requests > settings.warmup > 0):
            raise Failure("SOAK_REQUESTS must be at least 2")
        return settings


class Soak:
    """The run's state: the settings, the statuses answered so far, and whether anything failed."""

    def __init__(self, settings: Settings, binary: Path):
        self.settings = settings
        self.binary = binary
        self.statuses: Counter[int] = Counter()
        self.failed = False
        # Requests a second, as last measured: sizes wrk's runs (0: measure first).
        self.rate = 0

    def fail(self, message: str) -> None:
        self.failed = True
        say(f"FAILED: {message}")

    def start_server(self, log: Path, *extra: str, wrapper: list[str] = ()) -> tuple[Server, str]:
        """A server on a free port, signed in there: (server, its session's cookie)."""
        s = self.settings
        command = [*wrapper, str(self.binary), *extra, "--port", "0", "--quiet", "--public", "Public",
                   "--database", "memory:", "--session-idle", s.demo.session_idle, "--drain", "0s",
                   # Its load posts thousands of times a second from one address.
                   "--post-limit", "0"]
        server = harness.start_server("feed-server", command, log, timeout=60, stdout_to_log=True)
        return server, s.demo.sign_in(server.port)

    # wrk runs for its -d duration whatever the script says; the script stops
    # each thread after its share. So a run of N requests is made of chunks
    # whose duration comes from the rate measured so far, repeated until N are
    # answered.
    def run_wrk(self, name: str, server: Server, cookie: str, remaining: int, connections: int) -> None:
        threads = self.settings.threads
        connections = max(connections, threads)
        chunk = 0
        if self.rate == 0:  # calibrate: two seconds, at most the requests asked for
            answered = self.wrk_chunk(name, chunk, server, cookie, 2, -(-remaining // threads), connections)
            self.rate = answered // 2 + 1
            remaining -= answered
            chunk += 1
        while remaining > 0:
            size = min(remaining, self.rate * 60)
            per_thread = -(-size // threads)
            duration = size * 12 // (self.rate * 10) + 2
            answered = self.wrk_chunk(name, chunk, server, cookie, duration, per_thread, connections)
            if answered <= 0:
                raise Failure(f"wrk answered nothing (see {self.log(name, chunk)})")
            # Fewer than asked: the rate was overestimated; go by what was measured.
            if answered < per_thread * threads:
                self.rate = answered // duration + 1
            remaining -= answered
            chunk += 1

    @staticmethod
    def log(name: str, chunk: int) -> Path:
        return OUT / f"wrk-{name}-{chunk}.log"

    def wrk_chunk(self, name: str, chunk: int, server: Server, cookie: str, duration: int, per_thread: int,
                  connections: int) -> int:
        """One wrk run of soak.lua; returns the requests it answered."""
        log = self.log(name, chunk)
        command = ["wrk", "-t", str(self.settings.threads), "-c", str(connections), "-d", f"{duration}s",
                   "--timeout", "10s", "-s", "scripts/soak.lua", "-H", f"Cookie: {cookie}",
                   f"http://127.0.0.1:{server.port}", "--", str(per_thread)]
        with open(log, "wb") as output:
            if subprocess.run(command, stdout=output, stderr=subprocess.STDOUT).returncode != 0:
                raise Failure(f"wrk failed (see {log})")
        return answered_in([log])

    def tally(self, name: str) -> None:
        """Adds a run's statuses to the count and checks its socket errors."""
        for log in logs_of(name):
            text = log.read_text(errors="replace")
            for code, count in re.findall(r"^status (\d+) (\d+)$", text, re.MULTILINE):
                self.statuses[int(code)] += int(count)
            match = re.search(r"^socket-errors (\d+) (\d+) (\d+) (\d+) (\d+)$", text, re.MULTILINE)
            connect, read, write, _status, timeout = map(int, match.groups()) if match else (0, 0, 0, 0, 0)
            if connect + read + write + timeout:
                self.fail(f"{name}: socket errors: connect {connect}, read {read}, write {write}, "
                          f"timeout {timeout} ({log})")


def logs_of(name: str) -> list[Path]:
    return sorted(OUT.glob(f"wrk-{name}-*.log"))


def answered_in(logs: list[Path]) -> int:
    return sum(int(n) for log in logs for n in re.findall(r"^answered (\d+)$", log.read_text(), re.MULTILINE))


def seconds_in(logs: list[Path]) -> int:
    return round(sum(float(s) for log in logs for s in re.findall(r"^seconds ([\d.]+)$", log.read_text(), re.MULTILINE)))


class RssSampler(threading.Thread):
    """VmRSS of a process every 2 s, until stopped or the process ends."""

    def __init__(self, pid: int, path: Path):
        super().__init__(daemon=True)
        self.pid, self.path = pid, path
        self.samples: list[int] = []
        self.done = threading.Event()

    def run(self) -> None:
        with open(self.path, "w") as out:
            while not self.done.is_set() and harness.running(self.pid):
                kb = harness.rss_kb(self.pid)
                if kb:
                    self.samples.append(kb)
                    out.write(f"{kb}\n")
                    out.flush()
                self.done.wait(2)

    def stop(self) -> list[int]:
        self.done.set()
        self.join(timeout=5)
        return self.samples


def python_client(script: str, *arguments, cookie: str, output: Path):
    """Runs one of the Python clients to its end, its JSON summary written to `output`."""
    environment = dict(os.environ, SECTIONAL_COOKIE=cookie)
    with open(output, "w") as out:
        subprocess.run([sys.executable, f"scripts/{script}", *map(str, arguments)], stdout=out, env=environment)
    return json.loads(output.read_text())


def soak_phase(run: Soak) -> dict:
    """Steps 1 to 3: warm-up with HEAD beside it, then the rest with VmRSS sampled."""
    s = run.settings
    server, cookie = run.start_server(OUT / "server.log")
    say(f"feed-server pid {server.pid} on 127.0.0.1:{server.port}; warm-up: {s.warmup} requests")
    rss_start = harness.rss_kb(server.pid)
    # Memory is read once each load's connections are closed (their buffers are not the server's at rest).
    idle = harness.descriptors(server.pid)
    head_output = open(OUT / "head-client.json", "w")
    head_client = harness.spawn([sys.executable, "scripts/head-client.py", str(server.port)], stdout=head_output,
                                env=dict(os.environ, SECTIONAL_COOKIE=cookie))
    run.run_wrk("warmup", server, cookie, s.warmup, s.connections)
    run.tally("warmup")
    rss_warm = harness.rss_at_rest_kb(server.pid, idle)
    rest = s.soak_requests - s.warmup
    say(f"VmRSS {rss_warm} kB after the warm-up; soaking with {rest} more requests")
    sampler = RssSampler(server.pid, OUT / "rss-samples.txt")
    sampler.start()
    run.run_wrk("soak", server, cookie, rest, s.connections)
    samples = sampler.stop()
    harness.stop(head_client)
    head_output.close()
    run.tally("soak")

    heads = json.loads((OUT / "head-client.json").read_text())
    for code, count in heads["statuses"].items():
        run.statuses[int(code)] += count
    if heads["failures"]:
        run.fail(f"HEAD: {heads['failures']} failures: {json.dumps(heads)}")
    alive = server.alive() and harness.healthy(server.port)
    if not alive:
        run.fail("the server died or stopped answering")
    rss_end = harness.rss_at_rest_kb(server.pid, idle)
    growth = rss_end - rss_warm
    if growth >= s.rss_limit_kb:
        run.fail(f"VmRSS grew by {growth} kB from the warm-up to the end (limit {s.rss_limit_kb} kB)")
    first_soak_log = run.log("soak", 0)
    latency = re.search(r"^latency-ms (.*)$", first_soak_log.read_text(), re.MULTILINE) if first_soak_log.exists() else None
    result = {"rss_start": rss_start, "rss_warm": rss_warm, "rss_max": max([rss_warm, *samples]), "rss_end": rss_end,
              "growth": growth, "alive": alive, "heads": sum(heads["statuses"].values()),
              "warmed": answered_in(logs_of("warmup")), "answered": answered_in(logs_of("soak")),
              "seconds": seconds_in(logs_of("soak")), "latency": latency.group(1) if latency else "?"}
    server.stop()
    return result


def status_checks(run: Soak, answered: int) -> tuple[int, int]:
    """No 5xx, no status outside the mix's own, and every request answered."""
    fivexx = sum(count for code, count in run.statuses.items() if code >= 500)
    unexpected = sum(count for code, count in run.statuses.items() if code not in EXPECTED_STATUSES)
    if fivexx:
        run.fail(f"{fivexx} answers were 5xx")
    if unexpected:
        run.fail(f"{unexpected} answers had a status outside the mix's own")
    if answered < run.settings.soak_requests:
        run.fail(f"only {answered} of {run.settings.soak_requests} requests were answered")
    return fivexx, unexpected


def leak_phase(run: Soak) -> dict:
    """Step 4: memcheck over LEAK_REQUESTS requests and a graceful stop."""
    s = run.settings
    say(f"leak check: {s.leak_requests} requests under valgrind memcheck")
    log = OUT / "memcheck.log"
    memcheck = ["valgrind", "--tool=memcheck", "--leak-check=full", "--show-leak-kinds=definite",
                "--errors-for-leak-kinds=definite", f"--log-file={log}"]
    server, cookie = run.start_server(OUT / "memcheck-server.log", "--threads", "2", wrapper=memcheck)
    run.rate = 0  # measure again: memcheck runs the server many times slower
    run.run_wrk("memcheck", server, cookie, s.leak_requests, 4)
    run.tally("memcheck")
    answered = answered_in(logs_of("memcheck"))
    server.stop(grace=60)
    text = log.read_text(errors="replace") if log.exists() else ""
    lost = re.findall(r"definitely lost: ([\d,]+) bytes in ([\d,]+) blocks", text)
    definite = f"{lost[-1][0]} bytes in {lost[-1][1]} blocks" if lost else "0 bytes in 0 blocks"
    if definite != "0 bytes in 0 blocks":
        run.fail(f"memcheck: definitely lost {definite} (see {log})")
    if "ERROR SUMMARY" not in text:
        run.fail(f"memcheck wrote no summary (see {log})")
    summary = re.findall(r"ERROR SUMMARY: ([\d,]+) errors from ([\d,]+) contexts", text)
    return {"answered": answered, "definite": definite, "other": other_reports(text),
            "errors": f"{summary[-1][0]} in {summary[-1][1]} contexts" if summary else None}


def other_reports(text: str) -> str:
    """memcheck's other findings, by kind and first frame. Not a failure of
    the leak check: see docs/RELIABILITY.md for the one it reports and why."""
    kinds = re.compile(r"^==\d+== (Conditional jump|Use of uninitialised|Invalid (read|write|free)|Syscall param|"
                       r"Mismatched|Source and destination)")
    lines, found = text.splitlines(), Counter()
    for index, line in enumerate(lines):
        if kinds.match(line) and index + 1 < len(lines):
            kind = re.sub(r"^==\d+== ", "", line)
            frame = re.sub(r"^==\d+== +at 0x[0-9A-F]+: ", "", lines[index + 1])
            found[f"{kind} at {frame}"] += 1
    return ";".join(f"{count} {report}" for report, count in sorted(found.items()))


def storm_phase(run: Soak) -> dict:
    """Step 5: clients leaving pages whose credit score hangs must leave no memory behind."""
    s = run.settings
    say(f"cancellation: two storms of {s.storm_requests} clients leaving mid-page, credit score hanging")
    # A short deadline: a page whose client left is noticed at its next write,
    # at the latest when the hanging section's deadline passes.
    server, cookie = run.start_server(OUT / "hang-server.log", "--simulate", "credit-score=hang",
                                      "--section-timeout", "200ms")
    storms = {}

    def storm(name: str) -> dict:
        storms[name] = python_client("disconnect-storm.py", server.port, s.storm_requests, "/feed", cookie=cookie,
                                     output=OUT / f"storm-{name}.json")
        return storms[name]

    storm("1")
    storm("1b")  # the allocator settles
    time.sleep(2)  # the deadlines of the last pages pass
    rss_1 = harness.rss_kb(server.pid)
    storm("2")
    time.sleep(2)
    rss_2 = harness.rss_kb(server.pid)
    growth = rss_2 - rss_1
    if growth >= s.rss_limit_kb:
        run.fail(f"VmRSS grew by {growth} kB over a storm of clients leaving hanging pages")
    for name in ("1", "2"):
        if storms[name]["failed"]:
            run.fail(f"storm {name}: requests failed: {json.dumps(storms[name])}")
    server.stop()
    return {"rss_1": rss_1, "rss_2": rss_2, "growth": growth}


def report(run: Soak, soak: dict, leaks: dict, storms: dict, fivexx: int, unexpected: int) -> None:
    s = run.settings
    total = sum(run.statuses.values())
    statuses = " ".join(f"{code}:{run.statuses[code]}" for code in sorted(run.statuses))
    other = f": {leaks['other']}" if leaks["other"] else ""
    rows = [
        ("requests answered", f"{total}: wrk {soak['warmed'] + soak['answered']} (warm-up {soak['warmed']}, then "
                              f"{soak['answered']} in {soak['seconds']}s), HEAD {soak['heads']}, "
                              f"under memcheck {leaks['answered']}"),
        ("statuses", statuses),
        ("5xx / unexpected statuses", f"{fivexx} / {unexpected}"),
        ("soak latency (ms, 1st chunk)", soak["latency"]),
        ("server alive at the end", "yes" if soak["alive"] else "no"),
        ("VmRSS (kB)", f"start {soak['rss_start']}, after warm-up {soak['rss_warm']}, max {soak['rss_max']}, "
                       f"end {soak['rss_end']}"),
        ("VmRSS growth after warm-up", f"{soak['growth']} kB (limit {s.rss_limit_kb} kB)"),
        ("memcheck definitely lost", leaks["definite"]),
        ("hang, clients leaving (kB)", f"VmRSS {storms['rss_1']} after storm 1, {storms['rss_2']} after storm 2: "
                                       f"{storms['growth']} kB (limit {s.rss_limit_kb} kB)"),
        ("memcheck other reports", f"{leaks['errors'] or '?'}{other}"),
    ]
    print(f"\n{'soak':<28} result")
    for name, value in rows:
        print(f"{name:<28} {value}")
    print("soak: FAILED" if run.failed else "soak: held")


def main() -> int:
    settings = Settings.from_environment()
    harness.ensure_tools(["wrk", "valgrind"])
    OUT.mkdir(parents=True, exist_ok=True)
    for log in OUT.glob("wrk-*.log"):
        log.unlink()
    say("building feed-server (release)")
    binary = harness.build_release(settings.release_build, OUT / "build.log", scratch=settings.scratch) / "feed-server"
    run = Soak(settings, binary)
    soak = soak_phase(run)
    fivexx, unexpected = status_checks(run, soak["warmed"] + soak["answered"])
    leaks = leak_phase(run)
    storms = storm_phase(run)
    report(run, soak, leaks, storms, fivexx, unexpected)
    return 1 if run.failed else 0


if __name__ == "__main__":
    harness.main("soak", main)
