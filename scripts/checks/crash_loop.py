#!/usr/bin/env python3
"""Crash loop, for `make crash-check`: a write the server has acknowledged
survives kill -9 at any moment.

The server answers an alert's dismiss or restore form with `303 See Other`
only once the write is committed (SQLite in WAL mode, synchronous=FULL), so
a `303` is a promise: whatever happens to the process next, that write is in
the database. This script tests the promise. In a temporary directory it
starts feed-server on a fresh SQLite database, signs in, collects the forms'
tokens, then, round after round: starts the server, reads /feed, and while one
writer thread dismisses random alerts of user 1 or restores them all, kills
the server with SIGKILL after a random delay. A write in flight at that
moment is "in doubt": it may or may not have committed.

Dismiss and restore overwrite each other, so the check follows a model: per
alert, the dismissed value the last acknowledged write implies, unless a
write in doubt came after it (then either value is right). The model is
checked twice a round, against the page after each restart (the server must
show every acknowledged write) and against the SQLite file itself after each
kill, with no server running (read only, so the next start still recovers
the WAL itself). The writer is sequential, so "last" is well defined.

kill -9 tests the process, not the disk: the page cache outlives it, so this
shows that no write is acknowledged before its commit (nor kept only in the
process), not that synchronous=FULL's fsync holds through a power cut.

Each write that changes the alerts also raises their version for open pages
(the version of `alerts:1` in live_versions), by the table's trigger, in the
write's own transaction: one a row written. After each kill the script
checks that version against the round's writes: every acknowledged write
counts the rows it wrote, and the write in doubt counts them exactly when its
change is in the file. A version raised apart from its write (a kill between
the two) shows as a mismatch.

Exits 1 on any mismatch, if the server fails to start or its page cannot be
read, or if fewer than MIN_ACKNOWLEDGED writes were acknowledged in all
(the run would prove nothing); 0 otherwise.

Usage: crash-loop.py --binary PATH [--rounds 20] [--seconds-per-round 0.6] [--seed N]
"""
import argparse
import http.client
import os
import random
import re
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from checks import harness
from checks.harness import Failure

USER = 1  # the first demo user, who signs in
# The session cookie, from one sign-in on the fresh database: sessions are
# stored in it, so the one cookie (and its form tokens) holds across restarts.
session = {"cookie": ""}
START_TIMEOUT = 10.0
REQUEST_TIMEOUT = 5.0
MIN_ACKNOWLEDGED = 20
RESTORE_SHARE = 0.25  # of the writes; the rest dismiss: alerts flip both ways, and often

FORM = re.compile(r'<form\b[^>]*\baction="([^"]+)"[^>]*>(.*?)</form>', re.DOTALL)
TOKEN = re.compile(r'<input type="hidden" name="token" value="([0-9a-f]+)">')
DISMISS_ACTION = re.compile(r"/feed/alerts/(\d+)/dismiss")
RESTORE_ACTION = "/feed/alerts/restore"
LISTENING = re.compile(r"listening on http://127\.0\.0\.1:(\d+)/")


class Server:
    """One feed-server process at a time on the temporary database. It picks
    its own free port (--port 0) and says which on stderr, so no port is
    guessed and none can be taken between a probe and the start."""

    def __init__(self, binary, workdir):
        self.binary = binary
        self.database = workdir / "crash.sqlite"
        self.public = workdir / "public"  # empty: the check needs pages, not static files
        self.public.mkdir()
        self.log = workdir / "server.log"
        self.process = None
        self.port = None

    def start(self, *options):
        with open(self.log, "w") as log:
            self.process = subprocess.Popen(
                # Its writer posts as fast as the server answers, from one address.
                [self.binary, "--port", "0", "--public", str(self.public), "--database", f"sqlite:{self.database}", "--quiet",
                 "--post-limit", "0", *options],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log)
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise Failure(f"feed-server exited with status {self.process.returncode}: {self.log_text()}")
            found = LISTENING.search(self.log.read_text())
            if found and healthy(int(found.group(1))):
                self.port = int(found.group(1))
                return
            time.sleep(0.02)
        raise Failure(f"feed-server did not answer /healthz within {START_TIMEOUT:.0f} s: {self.log_text()}")

    def kill(self):
        """SIGKILL, not SIGTERM: no shutdown code runs, as in a crash."""
        if self.process is None:
            return
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait()
        self.process = None

    def log_text(self):
        return self.log.read_text().strip() or "(nothing on stderr)"


def healthy(port):
    try:
        return get(port, "/healthz") == (200, "ok")
    except (OSError, http.client.HTTPException):
        return False


def get(port, path):
    answer = harness.request(port, path, cookie=session["cookie"], timeout=REQUEST_TIMEOUT)
    return answer.status, answer.text.strip()


def post_form(port, action, token):
    """The form's status code; raises on connection trouble."""
    answer = harness.request(port, action, cookie=session["cookie"], method="POST", body=f"token={token}&back=/feed",
                             headers={"Content-Type": "application/x-www-form-urlencoded"}, timeout=REQUEST_TIMEOUT)
    return answer.status


def sign_in(port):
    """Signs the demo user in through the form; keeps the session cookie."""
    session["cookie"] = harness.sign_in(port, "alex", harness.DEMO_USERS["alex"], timeout=REQUEST_TIMEOUT)


def feed_forms(port):
    """The page's form tokens by action. Fails unless the alerts section
    rendered (a section past its deadline shows a fallback without forms,
    which would read as every alert dismissed)."""
    for _ in range(3):
        status, page = get(port, "/feed")
        if status == 200 and ('<ul class="alerts"' in page or "No alerts. All is well." in page):
            return {action: token.group(1) for action, inner in FORM.findall(page) if (token := TOKEN.search(inner))}
    raise Failure(f"/feed did not render the alerts section (last answer {status})")


def visible_alerts(forms):
    """Alert ids the page offers to dismiss: those not dismissed."""
    return {int(found.group(1)) for action in forms if (found := DISMISS_ACTION.fullmatch(action))}


class Write:
    """One form post: dismiss one alert (alert is its id) or restore them all (alert is None)."""

    def __init__(self, alert, action, token):
        self.alert, self.action, self.token = alert, action, token
        self.dismisses = alert is not None
        self.label = f"dismiss {alert}" if self.dismisses else "restore"


class Writes:
    """What the writer chooses from: each of the user's alerts' dismiss form, and the restore form."""

    def __init__(self, dismisses, restore):
        self.dismisses, self.restore = dismisses, restore
        self.alert_ids = [write.alert for write in dismisses]


class Model:
    """What must be stored, per alert of the user: the dismissed value of the
    last acknowledged write that touched it, or None when a write in doubt
    came after that one (it may or may not have committed). Only the writer
    thread changes it, and only while the main thread waits for it."""

    def __init__(self, alert_ids):
        # The setup's last write, a restore, was acknowledged: nothing is dismissed.
        self.expected = {alert: False for alert in alert_ids}
        self.because = {alert: "the setup's restore" for alert in alert_ids}
        self.round_writes = []  # (write, acknowledged), this round's, in order

    def record(self, write, acknowledged, when):
        self.round_writes.append((write, acknowledged))
        for alert in [write.alert] if write.dismisses else self.expected:
            self.expected[alert] = write.dismisses if acknowledged else None
            self.because[alert] = f"{write.label} ({when})"

    def mismatches(self, dismissed, where):
        """`dismissed` maps each of the user's alert ids to its stored value."""
        if set(dismissed) != set(self.expected):
            return [f"{where}: alerts {sorted(dismissed)}, expected {sorted(self.expected)}"]
        return [f"{where}: alert {alert} dismissed={int(dismissed[alert])}, but {self.because[alert]} was acknowledged"
                for alert, value in sorted(self.expected.items()) if value is not None and dismissed[alert] != value]


class Tally:
    def __init__(self):
        self.acknowledged = 0
        self.in_doubt = 0
        self.refused = 0  # connection refused: the server was already gone, nothing was sent
        self.odd_answers = []  # a status other than 303 is not a crash: worth a look


def write_until_killed(port, writes, model, tally, stop, rng, when):
    """Sequential writes until one is not acknowledged (the server is gone)
    or stop is set. Stopping at the first one keeps at most one write in
    doubt per round, and "last acknowledged" well defined."""
    while not stop.is_set():
        write = writes.restore if rng.random() < RESTORE_SHARE else rng.choice(writes.dismisses)
        try:
            status = post_form(port, write.action, write.token)
        except ConnectionRefusedError:
            tally.refused += 1  # no listener: the request reached no server, so it changed nothing
            return
        except (OSError, http.client.HTTPException):
            status = None  # cut off mid-request: committed or not, nobody knows
        if status == 303:
            model.record(write, acknowledged=True, when=when)
            tally.acknowledged += 1
            continue
        model.record(write, acknowledged=False, when=when)
        tally.in_doubt += 1
        if status is not None:
            tally.odd_answers.append(f"{when}: {write.label} answered {status}")
        return


def collect_writes(server):
    """Every write the writer may send, with its token, from a first run of
    the server on the fresh database. Tokens are stable across restarts (the
    key is in the database). The restore form shows only once an alert is
    dismissed, so this dismisses one, then restores, leaving nothing dismissed."""
    start_fresh(server)
    sign_in(server.port)
    forms = feed_forms(server.port)
    dismisses = [Write(alert, f"/feed/alerts/{alert}/dismiss", forms[f"/feed/alerts/{alert}/dismiss"])
                 for alert in sorted(visible_alerts(forms))]
    if not dismisses:
        raise Failure("/feed shows no alert to dismiss")
    setup_write(server, dismisses[0])
    restore_token = feed_forms(server.port).get(RESTORE_ACTION)
    if restore_token is None:
        raise Failure(f"no restore form on /feed after {dismisses[0].label}")
    restore = Write(None, RESTORE_ACTION, restore_token)
    setup_write(server, restore)
    server.kill()
    return Writes(dismisses, restore)


def start_fresh(server):
    """The first start, which creates and seeds the database."""
    server.start()


def setup_write(server, write):
    status = post_form(server.port, write.action, write.token)
    if status != 303:
        raise Failure(f"setup: {write.label} answered {status}, not 303")


def page_state(port, alert_ids):
    """Each alert's dismissed value as /feed shows it: no dismiss form, dismissed."""
    visible = visible_alerts(feed_forms(port))
    return {alert: alert not in visible for alert in set(alert_ids) | visible}


def stored_state(database):
    """Each of the user's alerts' dismissed value in the SQLite file. Read
    only: a read-write connection would checkpoint the WAL on close, and the
    next start would no longer recover it itself."""
    connection = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)
    try:
        rows = connection.execute("SELECT id, dismissed FROM alerts WHERE user_id = ?", (USER,)).fetchall()
    finally:
        connection.close()
    return {alert: bool(dismissed) for alert, dismissed in rows}


def stored_version(database):
    """The version of the user's alerts in live_versions (0 before any change), read only."""
    connection = sqlite3.connect(f"{database.as_uri()}?mode=ro", uri=True)
    try:
        row = connection.execute("SELECT version FROM live_versions WHERE key = ?", (f"alerts:{USER}",)).fetchone()
    finally:
        connection.close()
    return row[0] if row else 0


def version_mismatches(round_writes, before, after, where):
    """`before` and `after` are (alerts' stored state, stored version) around
    a round. Replays the round's writes from the state before: a dismiss
    writes its alert's row (dismissed already or not), a restore each
    dismissed one's."""
    state, version = dict(before[0]), before[1]
    for write, acknowledged in round_writes:
        previous = dict(state)
        if write.dismisses:
            changes = 1
            state[write.alert] = True
        else:
            changes = sum(1 for dismissed in state.values() if dismissed)
            state = {alert: False for alert in state}
        if acknowledged:
            version += changes
            continue
        # The write in doubt, the round's last: its change counts exactly when it is in the file.
        if changes == 0:
            allowed = {version}
        elif state == previous:  # dismissing a dismissed alert: committed or not, the file looks the same
            allowed = {version, version + changes}
        else:
            allowed = {version + changes} if after[0] == state else {version}
        if after[1] not in allowed:
            return [f"{where}: alerts:{USER} is at version {after[1]}, expected {sorted(allowed)} after {write.label} in doubt"]
        return []
    if after[1] != version:
        return [f"{where}: alerts:{USER} is at version {after[1]}, expected {version}"]
    return []


def run_round(number, server, writes, model, tally, rng, seconds):
    """Restart, check the page, write until a kill -9 at a random moment, check the file."""
    when = f"round {number}"
    before = (stored_state(server.database), stored_version(server.database))
    model.round_writes = []
    server.start()
    problems = model.mismatches(page_state(server.port, model.expected), f"{when}, /feed after restart")
    stop = threading.Event()
    writer = threading.Thread(target=write_until_killed,
                              args=(server.port, writes, model, tally, stop, random.Random(rng.random()), when))
    writer.start()
    time.sleep(rng.uniform(0.05, seconds))
    server.kill()
    stop.set()
    writer.join()
    after = (stored_state(server.database), stored_version(server.database))
    return (problems + model.mismatches(after[0], f"{when}, database after kill -9")
            + version_mismatches(model.round_writes, before, after, f"{when}, live version after kill -9"))


def report(rounds, seed, tally, problems, failure):
    print(f"crash-loop: {rounds} rounds (seed {seed}): {tally.acknowledged} writes acknowledged, "
          f"{tally.in_doubt} in doubt, {tally.refused} refused (server already gone), {len(problems)} mismatches")
    for line in problems:
        print(f"  MISMATCH {line}")
    for line in tally.odd_answers:
        print(f"  odd answer: {line}")
    if failure:
        print(f"crash-loop: FAILED: {failure}")
        return 1
    if problems:
        print("crash-loop: FAILED: acknowledged writes were lost, or not shown, or their live versions drifted, after kill -9")
        return 1
    if tally.acknowledged < MIN_ACKNOWLEDGED:
        print(f"crash-loop: FAILED: fewer than {MIN_ACKNOWLEDGED} writes acknowledged, too few to show anything")
        return 1
    print("crash-loop: ok, every acknowledged write survived kill -9, each change with its live version")
    return 0


def main():
    parser = argparse.ArgumentParser(description="Kill feed-server with SIGKILL mid-write; check no acknowledged write is lost.")
    parser.add_argument("--binary", required=True, help="the feed-server executable")
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--seconds-per-round", type=float, default=0.6, help="longest wait before the kill")
    parser.add_argument("--seed", type=int, help="for the random choices (timing still varies)")
    args = parser.parse_args()
    seed = random.randrange(2**32) if args.seed is None else args.seed
    rng = random.Random(seed)
    workdir = Path(tempfile.mkdtemp(prefix="crash-loop-"))
    server = Server(args.binary, workdir)
    tally, problems, completed, failure = Tally(), [], 0, None
    try:
        writes = collect_writes(server)
        model = Model(writes.alert_ids)
        for number in range(1, args.rounds + 1):
            problems += run_round(number, server, writes, model, tally, rng, args.seconds_per_round)
            completed = number
    except (Failure, OSError, http.client.HTTPException) as error:
        failure = f"{type(error).__name__}: {error}" if not isinstance(error, Failure) else str(error)
    finally:
        server.kill()
        shutil.rmtree(workdir, ignore_errors=True)
    return report(completed, seed, tally, problems, failure)


if __name__ == "__main__":
    sys.exit(main())
