#!/usr/bin/env python3
"""`make cluster-check`: three feed-server replicas on one PostgreSQL behind
nginx (deploy/nginx.conf, its ports moved), all on loopback, under a mixed
load for a bounded time while one replica is killed with SIGKILL and
restarted and another is stopped with SIGTERM (it drains) and restarted.

Checks, each a line of the report:
- no idempotent request (GET of pages, fragments, JSON) failed through nginx;
- every write nginx answered 303 for is in the database at the end (a write
  in flight when a replica died may or may not be, and may fail: a POST is
  never retried on another replica);
- a session made through nginx (so on one replica) works on every replica;
- every replica follows random writes (forms on any replica, SQL from psql)
  within a second, its pages and fragments read as a browser revalidates
  them, never showing the old state;
- a streamed /feed with a slow section shows its first bytes through nginx
  well before the slow section is done;
- replicas started together applied each migration once.
Prints requests, failures by kind, p50/p99 through the proxy; exits 1 on
any failure.

Usage: cluster-check.py --binary PATH --public DIR [--seconds 12]
Needs SECTIONAL_TEST_POSTGRES (scripts/with-postgres.sh sets it) and nginx.
"""
import argparse
import http.client
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from checks import harness

SIGN_IN = f"name=alex&password={harness.DEMO_USERS['alex']}"
FORM = re.compile(r'<form\b[^>]*\baction="([^"]+)"[^>]*>(.*?)</form>', re.DOTALL)
TOKEN = re.compile(r'<input type="hidden" name="token" value="([0-9a-f]+)">')
failures = []


def check(name, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok or not detail else f": {detail}"), flush=True)
    if not ok:
        failures.append(name)
    return ok


def check_kept_pages_follow(replicas, cookie, database):
    """Each replica keeps the feed's sections rendered (its section cache), and the tags of the
    answers it sent with the versions they were made at, until those versions change. Random
    writes, through a form on any replica and in SQL from outside (psql), interleaved with reads
    of the page and two fragments on every replica, each asking with the tag of the copy it has
    as a browser would: after each acknowledged write, every replica must show the new state,
    never the old, within a bound once the NOTIFY can have arrived; the longest wait is reported.
    The data is put back after."""
    headers = {"Cookie": cookie}
    loaded = lambda replica: harness.request(replica.port, "/feed?stream=0", headers=headers).header("Server-Timing") or ""
    for _ in range(2):
        loaded(replicas[1])  # warm: the second read is served as kept
    # A kept card has no load in Server-Timing: its data was not read.
    check("another replica serves the alerts as kept", "load-alerts" not in loaded(replicas[1]), loaded(replicas[1]))
    titles = dict(tuple(line.split("|", 1)) for line in psql(database, "SELECT id, title FROM alerts WHERE user_id = 1").splitlines())
    account = psql(database, "SELECT name FROM accounts WHERE user_id = 1 AND position = 0")
    state = {"dismissed": {alert: False for alert in titles}, "titles": dict(titles), "account": account}
    copies, confirmed, waits, stale = {}, [0], [], []

    def read(replica, target):
        """The replica's answer, or the copy kept of it when it answers 304."""
        kept = copies.get((replica.port, target))
        answer = harness.request(replica.port, target, headers={**headers, **({"If-None-Match": kept[0]} if kept else {})})
        if answer.status == 304 and kept:
            confirmed[0] += 1
            return kept[1]
        if answer.header("ETag"):
            copies[(replica.port, target)] = (answer.header("ETag"), answer.text)
        return answer.text

    def shows(html, target):
        alerts_ok = all((state["titles"][a] in html) != state["dismissed"][a] for a in titles)
        balances_ok = state["account"] in html
        return {"/feed?stream=0": alerts_ok and balances_ok, "/feed/sections/alerts": alerts_ok,
                "/feed/sections/balances": balances_ok}[target]

    def post(replica, action):
        page = read(replica, "/feed?stream=0")
        token = next((t.group(1) for a, inner in FORM.findall(page) if a == action and (t := TOKEN.search(inner))), None)
        if token is None:
            return False
        return request(replica.port, "POST", action, body=f"token={token}",
                       headers={**headers, "Content-Type": "application/x-www-form-urlencoded"})[0] == 303

    chooser = random.Random(20261205)
    for step in range(24):
        kind = chooser.choice(["dismiss", "restore", "rename", "retitle"])
        writer = chooser.choice(replicas)
        if kind == "dismiss":
            shown = [a for a in titles if not state["dismissed"][a]]
            if not shown or not post(writer, f"/feed/alerts/{(alert := chooser.choice(shown))}/dismiss"):
                continue
            state["dismissed"][alert] = True
        elif kind == "restore":
            if not any(state["dismissed"].values()) or not post(writer, "/feed/alerts/restore"):
                continue
            state["dismissed"] = {alert: False for alert in titles}
        elif kind == "rename":
            state["account"] = f"Checking {step}."
            psql(database, f"UPDATE accounts SET name = '{state['account']}' WHERE user_id = 1 AND position = 0")
        else:
            alert = chooser.choice(list(titles))
            state["titles"][alert] = f"Notice {step}."
            psql(database, f"UPDATE alerts SET title = '{state['titles'][alert]}' WHERE id = {alert}")
        written = time.monotonic()
        for replica in replicas:
            for target in ("/feed?stream=0", "/feed/sections/alerts", "/feed/sections/balances"):
                while not shows(read(replica, target), target):
                    if time.monotonic() - written > 1:
                        stale.append(f"step {step} ({kind}): replica {replica.number} {target}")
                        break
                    time.sleep(0.002)
                else:
                    if not shows(read(replica, target), target):
                        stale.append(f"step {step} ({kind}): replica {replica.number} {target} showed the old state again")
        waits.append(time.monotonic() - written)
    longest = max(waits, default=0) * 1000
    check(f"every replica follows {len(waits)} random writes, in forms and from psql, never showing the old state "
          f"(all shown within {longest:.0f} ms of each write; {confirmed[0]} reads answered 304)",
          not stale and len(waits) >= 12 and confirmed[0] > 0, "; ".join(stale[:3]) or f"{len(waits)} writes, {confirmed[0]} 304s")
    for alert, title in titles.items():
        psql(database, f"UPDATE alerts SET title = '{title}', dismissed = FALSE WHERE id = {alert}")
    psql(database, f"UPDATE accounts SET name = '{account}' WHERE user_id = 1 AND position = 0")


def request(port, method, path, body=None, headers=None, timeout=10):
    """Status, Set-Cookie and body text of one request: the shape the checks below read."""
    answer = harness.request(port, path, method=method, body=body, headers=headers, timeout=timeout)
    return answer.status, answer.header("Set-Cookie"), answer.text


class Replica:
    def __init__(self, number, binary, public, database, work):
        self.number, self.port = number, harness.free_port()
        self.command = [binary, "--port", str(self.port), "--public", public, "--database", database, "--quiet",
                        "--drain", "2s", "--trusted-proxy", "127.0.0.1", "--session-idle", "1h",
                        "--simulate", "recent-activity=delay:800ms",
                        # Its writer posts as fast as the replicas answer, from one address.
                        "--post-limit", "0"]
        self.log = open(os.path.join(work, f"replica-{number}.log"), "ab")
        self.process = None

    def start(self):
        self.process = subprocess.Popen(self.command, stdout=self.log, stderr=self.log)

    def wait_ready(self, timeout=20):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if request(self.port, "GET", "/readyz", timeout=2)[0] == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.1)
        return False

    def stop(self, sig=signal.SIGTERM):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=30)


def nginx_config(work, listen, replicas):
    """deploy/nginx.conf as it is, with an upstream.conf of these replicas beside it and its port moved."""
    deploy = os.path.join(os.path.dirname(__file__), "..", "..", "deploy")
    upstream = open(os.path.join(deploy, "upstream.conf")).read()
    servers = iter(replicas)
    upstream = re.sub(r"server 127\.0\.0\.1:\d+", lambda _: f"server 127.0.0.1:{next(servers).port}", upstream)
    open(os.path.join(work, "upstream.conf"), "w").write(upstream)
    text = open(os.path.join(deploy, "nginx.conf")).read().replace("listen 8080;", f"listen 127.0.0.1:{listen};")
    # Everything nginx writes goes to the scratch directory.
    head = f"pid {work}/nginx.pid;\nerror_log {work}/nginx-error.log warn;\n"
    temp = "".join(f"    {kind}_temp_path {work}/{kind};\n" for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    text = head + text.replace("http {\n", "http {\n" + temp, 1)
    path = os.path.join(work, "nginx.conf")
    open(path, "w").write(text)
    return path


class Window:
    """A browser window's live stream (what the page script opens), read on a thread: events, and the last event id."""

    def __init__(self, port, cookie, last_event_id=None):
        self.events, self.last_id, self.closed = [], last_event_id, threading.Event()
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=15)
        head = f"GET /feed/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nAccept: text/event-stream\r\nCookie: {cookie}\r\n"
        if last_event_id:
            head += f"Last-Event-ID: {last_event_id}\r\n"
        self.sock.sendall((head + "\r\n").encode())
        self.opened = threading.Event()
        threading.Thread(target=self.read, daemon=True).start()

    def read(self):
        buffer = b""
        try:
            while True:
                data = self.sock.recv(65536)
                if not data:
                    break
                buffer += data
                if b"retry: 1000" in buffer:
                    self.opened.set()
                while b"\n\n" in buffer:
                    block, buffer = buffer.split(b"\n\n", 1)
                    text = block.decode("utf-8", "replace")
                    if "event: section" in text:
                        for line in text.splitlines():
                            if line.startswith("id: "):
                                self.last_id = line[4:]
                        self.events.append((time.monotonic(), text))
        except OSError:
            pass
        self.closed.set()

    def wait_event(self, after, timeout):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(t >= after for t, _ in self.events):
                return next(t for t, _ in self.events if t >= after) - after
            time.sleep(0.01)
        return None


def check_windows(proxy_port, replicas, cookie, forms, sam_cookie):
    """Two windows of one user on two replicas, a second user's window: a dismissal through nginx reaches both
    of the user's windows within a second and not the other user's; the replica holding a window is killed, and
    the window, reconnected through nginx with its Last-Event-ID, catches up."""
    first, second, other = Window(replicas[0].port, cookie), Window(replicas[1].port, cookie), Window(replicas[2].port, sam_cookie)
    check("three live windows opened", all(w.opened.wait(5) for w in (first, second, other)))
    post = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
            "Origin": f"http://127.0.0.1:{proxy_port}", "Sec-Fetch-Site": "same-origin"}
    dismiss = next(a for a in forms if a.endswith("/dismiss"))
    start = time.monotonic()
    request(proxy_port, "POST", dismiss, body=f"token={forms[dismiss]}", headers=post)
    delays = [first.wait_event(start, 3), second.wait_event(start, 3)]
    shown = ", ".join("never" if d is None else f"{d * 1000:.0f} ms" for d in delays)
    check(f"a dismissal reaches the user's windows on both replicas within a second ({shown})",
          all(d is not None and d < 1 for d in delays), shown)
    check("another user's window does not change", other.wait_event(start, 0.5) is None)
    replicas[0].stop(signal.SIGKILL)
    check("the window on the killed replica sees its stream end", first.closed.wait(5))
    start = time.monotonic()
    request(proxy_port, "POST", "/feed/alerts/restore", body=f"token={forms['/feed/alerts/restore']}", headers=post)
    reopened = Window(proxy_port, cookie, last_event_id=first.last_id)  # as the page script does, through nginx
    caught = reopened.wait_event(start, 5)
    check("reconnected through nginx, the window catches up" + (f" ({caught * 1000:.0f} ms)" if caught is not None else ""),
          caught is not None, f"last id {first.last_id}")
    replicas[0].start()
    replicas[0].wait_ready()
    for window in (second, other, reopened):
        window.sock.close()


class Load:
    """Readers send idempotent requests; one writer dismisses and restores alerts, sequentially."""

    def __init__(self, port, cookie, forms):
        self.port, self.cookie, self.forms = port, cookie, forms
        # As a browser posts a form: with its Origin, which the replicas compare with the Host nginx passes on.
        self.post_headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded",
                             "Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"}
        self.stop = threading.Event()
        self.lock = threading.Lock()
        self.latencies, self.failed, self.counts = [], {}, {"reads": 0, "writes acknowledged": 0, "writes in doubt": 0}
        self.acknowledged = []  # (sequence, action) in order
        self.in_doubt = []

    def fail(self, kind, detail):
        with self.lock:
            self.failed.setdefault(kind, []).append(detail)

    def reader(self, seed):
        rng = random.Random(seed)
        paths = ["/feed?stream=0", "/feed", "/feed/sections/alerts", "/api/feed/sections", "/day?date=2026-11-03&stream=0",
                 "/api/day/sections?date=2026-11-03"]
        while not self.stop.is_set():
            path = rng.choice(paths)
            start = time.monotonic()
            try:
                status, _, body = request(self.port, "GET", path, headers={"Cookie": self.cookie})
                ok = status == 200 and (not path.startswith("/feed") or "</" in body)
            except (OSError, http.client.HTTPException) as error:
                status, ok = type(error).__name__, False
            with self.lock:
                self.counts["reads"] += 1
                self.latencies.append(time.monotonic() - start)
            if not ok:
                self.fail(f"GET answered {status}", path)

    def writer(self, seed):
        rng = random.Random(seed)
        sequence = 0
        while not self.stop.is_set():
            action = rng.choice(list(self.forms))
            sequence += 1
            body = f"token={self.forms[action]}&back=/feed"
            try:
                status, _, _ = request(self.port, "POST", action, body=body, headers=self.post_headers)
            except (OSError, http.client.HTTPException):
                status = None
            with self.lock:
                if status == 303:
                    self.acknowledged.append((sequence, action))
                    self.counts["writes acknowledged"] += 1
                else:
                    self.in_doubt.append((sequence, action))
                    self.counts["writes in doubt"] += 1
            time.sleep(0.01)


def expected_state(load, alert_ids):
    """Per alert, the dismissed value its last acknowledged write implies, unless a write in doubt came after it."""
    expected = {}
    events = sorted([(s, a, True) for s, a in load.acknowledged] + [(s, a, False) for s, a in load.in_doubt])
    for alert in alert_ids:
        value, certain = False, True
        for _, action, acknowledged in events:
            touches = action.endswith("/restore") or action == f"/feed/alerts/{alert}/dismiss"
            if not touches:
                continue
            if acknowledged:
                value, certain = not action.endswith("/restore"), True
            else:
                certain = False
        expected[alert] = value if certain else None
    return expected


def psql(url, query):
    return subprocess.run(["psql", url, "-tAc", query], capture_output=True, text=True, check=True).stdout.strip()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--public", required=True)
    parser.add_argument("--seconds", type=float, default=12)
    args = parser.parse_args()
    admin = os.environ.get("SECTIONAL_TEST_POSTGRES")
    if not admin or not shutil.which("nginx"):
        print("cluster-check: needs SECTIONAL_TEST_POSTGRES (scripts/with-postgres.sh) and nginx", file=sys.stderr)
        return 2
    work = tempfile.mkdtemp(prefix="cluster-check-")
    os.chmod(work, 0o755)
    for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"):
        os.makedirs(os.path.join(work, kind))
        os.chmod(os.path.join(work, kind), 0o777)  # nginx workers run as another user
    psql(admin, "CREATE DATABASE cluster")
    database = admin.rsplit("/", 1)[0] + "/cluster"
    replicas = [Replica(n, args.binary, args.public, database, work) for n in (1, 2, 3)]
    nginx = None
    try:
        # Started together: their migrations and seeding race, and must apply once.
        for replica in replicas:
            replica.start()
        check("three replicas started together are ready", all(replica.wait_ready() for replica in replicas))
        check("each migration applied once",
              psql(database, "SELECT count(*) = count(DISTINCT version) AND count(*) = max(version) FROM schema_version") == "t")
        check("the demo users seeded once", psql(database, "SELECT count(*) FROM users") == "2")

        proxy_port = harness.free_port()
        config = nginx_config(work, proxy_port, replicas)
        nginx = subprocess.Popen(["nginx", "-c", config, "-p", work, "-g", "daemon off;"],
                                 stdout=open(os.path.join(work, "nginx.out"), "wb"), stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                if request(proxy_port, "GET", "/healthz", timeout=2)[0] == 200:
                    break
            except OSError:
                time.sleep(0.1)

        status, cookie, _ = request(proxy_port, "POST", "/signin", body=SIGN_IN,
                                    headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{proxy_port}"})
        cookie = (cookie or "").split(";")[0]
        check("signed in through nginx", status == 303 and cookie.startswith("sectional_session="), str(status))
        check("the session works on every replica",
              all(request(r.port, "GET", "/api/feed/sections", headers={"Cookie": cookie})[0] == 200 for r in replicas))
        pages = {request(r.port, "GET", "/feed?stream=0", headers={"Cookie": cookie})[2] for r in replicas}
        check("every replica shows the user the same feed, byte for byte", len(pages) == 1, f"{len(pages)} different pages")

        check_kept_pages_follow(replicas, cookie, database)

        # Time to first byte of a streamed page whose recent-activity section takes 800 ms.
        connection = http.client.HTTPConnection("127.0.0.1", proxy_port, timeout=10)
        start = time.monotonic()
        connection.request("GET", "/feed?add=recent-activity", headers={"Cookie": cookie})
        response = connection.getresponse()
        first = response.read1(1024) if hasattr(response, "read1") else response.read(1024)
        ttfb = time.monotonic() - start
        rest = response.read()
        total = time.monotonic() - start
        connection.close()
        timing = f"first byte {ttfb * 1000:.0f} ms, whole page {total * 1000:.0f} ms"
        check(f"streamed through nginx: first bytes before the slow section ({timing})", bool(first) and ttfb < 0.5 and total >= 0.75, timing)

        _, _, page = request(proxy_port, "GET", "/feed?stream=0", headers={"Cookie": cookie})
        forms = {action: token.group(1) for action, inner in FORM.findall(page) if (token := TOKEN.search(inner))
                 and (action.endswith("/dismiss") or action.endswith("/restore"))}
        alert_ids = [int(a.split("/")[3]) for a in forms if a.endswith("/dismiss")]
        if "/feed/alerts/restore" not in forms:
            dismiss = next(a for a in forms if a.endswith("/dismiss"))
            request(proxy_port, "POST", dismiss, body=f"token={forms[dismiss]}",
                    headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})
            _, _, page = request(proxy_port, "GET", "/feed?stream=0", headers={"Cookie": cookie})
            for action, inner in FORM.findall(page):
                if action == "/feed/alerts/restore" and (token := TOKEN.search(inner)):
                    forms[action] = token.group(1)
            request(proxy_port, "POST", "/feed/alerts/restore", body=f"token={forms['/feed/alerts/restore']}",
                    headers={"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"})

        status, sam_cookie, _ = request(proxy_port, "POST", "/signin", body=f"name=sam&password={harness.DEMO_USERS['sam']}",
                                        headers={"Content-Type": "application/x-www-form-urlencoded", "Origin": f"http://127.0.0.1:{proxy_port}"})
        check_windows(proxy_port, replicas, cookie, forms, (sam_cookie or "").split(";")[0])

        load = Load(proxy_port, cookie, forms)
        threads = [threading.Thread(target=load.reader, args=(n,)) for n in range(4)] + [threading.Thread(target=load.writer, args=(9,))]
        for thread in threads:
            thread.start()
        third = args.seconds / 3
        time.sleep(third)
        replicas[0].stop(signal.SIGKILL)
        time.sleep(1)
        replicas[0].start()
        check("a replica killed with SIGKILL comes back ready", replicas[0].wait_ready())
        time.sleep(third / 2)
        replicas[1].stop(signal.SIGTERM)
        check("a replica stopped with SIGTERM exits 0", replicas[1].process.returncode == 0, str(replicas[1].process.returncode))
        replicas[1].start()
        check("and comes back ready", replicas[1].wait_ready())
        time.sleep(third)
        load.stop.set()
        for thread in threads:
            thread.join()

        check("no idempotent request failed through nginx", not load.failed,
              "; ".join(f"{kind}: {len(items)} ({', '.join(sorted(set(items))[:3])})" for kind, items in load.failed.items()))
        expected = expected_state(load, alert_ids)
        stored = dict(tuple(map(int, line.split("|"))) for line in
                      psql(database, f"SELECT id, dismissed::int FROM alerts WHERE id IN ({','.join(map(str, alert_ids))})").splitlines())
        wrong = [f"alert {a}: stored {bool(stored[a])}, acknowledged {v}" for a, v in expected.items() if v is not None and bool(stored[a]) != v]
        check(f"every acknowledged write is in the database ({load.counts['writes acknowledged']} acknowledged)", not wrong, "; ".join(wrong))
        check("writes were made", load.counts["writes acknowledged"] >= 20, str(load.counts["writes acknowledged"]))
        latencies = sorted(load.latencies)
        p = lambda q: latencies[min(len(latencies) - 1, int(len(latencies) * q))] * 1000 if latencies else 0
        print(f"cluster-check: {load.counts['reads']} reads, {load.counts['writes acknowledged']} writes acknowledged, "
              f"{load.counts['writes in doubt']} in doubt (in flight at a kill, never retried); "
              f"through nginx p50 {p(0.5):.1f} ms, p99 {p(0.99):.1f} ms; "
              f"failures: {sum(len(v) for v in load.failed.values())}")
    finally:
        if nginx and nginx.poll() is None:
            nginx.terminate()
            nginx.wait(timeout=10)
        for replica in replicas:
            try:
                replica.stop(signal.SIGKILL)
            except Exception:
                pass
        shutil.rmtree(work, ignore_errors=True)
    print("cluster-check: " + ("all passed" if not failures else f"{len(failures)} failed: " + "; ".join(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
