"""Process, port and measurement functions shared by `make bench`, `make soak`
and `make abuse` (scripts/checks/bench.py, soak.py, abuse.py). Standard library only.

What every one of those runs needs, in one place so that each does it the same way:

- Processes: every server and client started with `spawn` or `start_server`
  is recorded and stopped when the run ends, whether it ends normally, on a
  failure or on an interrupt (SIGINT, SIGTERM, SIGHUP): SIGTERM first, so
  that a server stops as in production, then SIGKILL after a grace period.
- Ports: servers are started with `--port 0` and the kernel picks a free
  port; `start_server` reads it from the server's "listening on
  http://127.0.0.1:PORT" line on standard error, so two runs never collide.
- Sessions: every page needs a signed-in user (signed out a page is a 303 to
  /signin and the API a 401), so `sign_in` posts a demo user's name and
  password to /signin and returns the Cookie field the load must send.
- Measures read from /proc: resident size (VmRSS, VmHWM), the process's CPU
  time (all threads, those already ended included), context switches,
  TCP connections held.
- wrk runs with a Lua reporter that prints one "WRK key=value ..." line.
- Release builds, and the Debian tools a run needs.

`main(name, function)` runs a script's body with all of that set up and
turns a `Failure` into "NAME: error: MESSAGE" and exit status 1.
"""

from __future__ import annotations

import atexit
import http.client
import os
import re
import socket
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import time
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
"""The repository: every script runs from there (wrk's Lua scripts load each other by relative path)."""

LISTENING = re.compile(rb"listening on http://127\.0\.0\.1:(\d+)")
SESSION_COOKIE = re.compile(r"(sectional_session=[0-9a-f]{64})(?:;|$)")
DEFAULT_RELEASE_BUILD = "swift build -c release --static-swift-stdlib -Xswiftc -cross-module-optimization -Xswiftc -Xfrontend -Xswiftc -disable-type-layout"


DEMO_USERS = {"alex": "alex-demo-1", "sam": "sam-demo-2"}
"""The seeded demo users and their passwords: the one place scripts read them from."""


class Failure(Exception):
    """A run that cannot go on: its message says what went wrong and where to look."""


def free_port() -> int:
    """A loopback port free now (for servers that cannot pick their own with port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- messages --------------------------------------------------------------

_name = "harness"
_started_at = time.monotonic()


def say(message: str) -> None:
    """A progress line on standard error, with the seconds since the run began."""
    print(f"{_name}: [{time.monotonic() - _started_at:3.0f}s] {message}", file=sys.stderr, flush=True)


# --- settings from the environment ------------------------------------------


def env_text(name: str, default: str) -> str:
    """An environment knob, or its default when unset or empty (make passes empty values through)."""
    value = os.environ.get(name, "")
    return value if value != "" else default


def env_int(name: str, default: int) -> int:
    """A whole-number knob; a value that is not one stops the run rather than being ignored."""
    text = env_text(name, str(default))
    try:
        return int(text)
    except ValueError:
        raise Failure(f"{name} must be a whole number, not {text!r}") from None


def env_flag(name: str) -> bool:
    """A knob that is on when set to anything but empty or 0 (QUICK=1)."""
    return env_text(name, "0") != "0"


# --- processes ----------------------------------------------------------------

_processes: list[subprocess.Popen] = []


def spawn(command: list[str], **options) -> subprocess.Popen:
    """Starts a process that the run stops at its end, whatever the end."""
    options.setdefault("stdin", subprocess.DEVNULL)
    process = subprocess.Popen([str(part) for part in command], cwd=ROOT, **options)
    _processes.append(process)
    return process


def running(pid: int) -> bool:
    """Whether a process exists and is not a zombie waiting to be reaped."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return not stat.rsplit(")", 1)[1].lstrip().startswith("Z")


def stop(process: subprocess.Popen, grace: float = 10) -> int | None:
    """Stops one process: SIGTERM, then SIGKILL if it is still there after
    `grace` seconds. Returns its exit status."""
    if process.poll() is None:
        try:
            process.send_signal(signal.SIGTERM)
            # A frozen process (SIGSTOP) only acts on SIGTERM once it runs again.
            process.send_signal(signal.SIGCONT)
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            process.kill()
        except ProcessLookupError:
            pass
    try:
        status = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        status = None
    if process in _processes:
        _processes.remove(process)
    return status


def stop_all() -> None:
    """Stops every process still recorded, newest first (clients before the servers they load)."""
    for process in reversed(list(_processes)):
        stop(process, grace=5)


def _interrupted(number, _frame):
    # SystemExit unwinds the script's own `finally` blocks, then main() stops what is left.
    raise SystemExit(128 + number)


@dataclass
class Server:
    """A started server: its process, the port it chose and the log of its standard error."""

    name: str
    process: subprocess.Popen
    port: int
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def alive(self) -> bool:
        return running(self.pid)

    def stop(self, grace: float = 10) -> int | None:
        return stop(self.process, grace)


def start_server(name: str, command: list[str], log: Path, timeout: float = 30,
                 env: dict[str, str] | None = None, stdout_to_log: bool = False) -> Server:
    """Starts a server on a port of its choosing and waits until it says
    "listening on http://127.0.0.1:PORT": only then does it answer.
    `stdout_to_log` sends standard output to the log too (servers that log
    requests there, or whose output should be kept)."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as log_file:
        process = spawn(command, stdout=log_file if stdout_to_log else subprocess.DEVNULL,
                        stderr=log_file, env=env)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        match = LISTENING.search(log.read_bytes())
        if match:
            return Server(name, process, int(match.group(1)), log)
        if process.poll() is not None:
            break
        time.sleep(0.1)
    stop(process, grace=5)
    tail = log.read_text(errors="replace")[-3000:]
    raise Failure(f"{name} did not start within {timeout:.0f}s ({' '.join(map(str, command))}); its log, {log}:\n{tail}")


# --- /proc ------------------------------------------------------------------------

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def status_kb(pid: int, field: str) -> int:
    """A kB field of /proc/PID/status (VmRSS, VmHWM); 0 once the process is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def rss_kb(pid: int) -> int:
    """Resident memory now."""
    return status_kb(pid, "VmRSS")


def descriptors(pid: int) -> int:
    """How many files and sockets the process has open; 0 once it is gone."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def rss_at_rest_kb(pid: int, idle_descriptors: int, timeout: float = 3.0) -> int:
    """Resident memory once the process has closed the connections of a load
    that just ended: at most `idle_descriptors` open, or as many for a quarter
    of a second (a client still connected on purpose), or `timeout` seconds.
    Read the moment wrk exits, up to 64 connection buffers of 36 KiB each are
    still mapped, which moved a reading by as much as 2.3 MB."""
    deadline = time.monotonic() + timeout
    count, steady_since = descriptors(pid), time.monotonic()
    while count > idle_descriptors and time.monotonic() < deadline:
        time.sleep(0.02)
        now = descriptors(pid)
        if now != count:
            count, steady_since = now, time.monotonic()
        elif time.monotonic() - steady_since >= 0.25:
            break
    return rss_kb(pid)


def hwm_kb(pid: int) -> int:
    """The most resident memory the process has had."""
    return status_kb(pid, "VmHWM")


def cpu_times(pid: int) -> tuple[float, float]:
    """User and system CPU seconds of the whole process so far: /proc/PID/stat's
    utime and stime cover every thread, those that have ended too (a worker
    thread that exits between two readings keeps its share). System time is
    the kernel's: system calls, and switching between threads."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    # utime and stime are fields 14 and 15; fields[0] here is field 3 (state).
    return int(fields[11]) / CLOCK_TICKS, int(fields[12]) / CLOCK_TICKS


def context_switches(pid: int) -> int:
    """Voluntary and involuntary context switches, over the process's current threads."""
    total = 0
    for status in Path(f"/proc/{pid}/task").glob("*/status"):
        try:
            for line in status.read_text().splitlines():
                if "ctxt_switches:" in line:
                    total += int(line.split()[1])
        except OSError:
            continue  # a thread that ended meanwhile
    return total


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the process's open socket descriptors."""
    inodes = set()
    for descriptor in Path(f"/proc/{pid}/fd").glob("*"):
        try:
            target = os.readlink(descriptor)
        except OSError:
            continue  # closed meanwhile
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def tcp_connections(pid: int) -> int:
    """The TCP connections a process holds: its socket descriptors that are
    TCP sockets other than listening ones. Counted in the process itself: a
    socket it has closed may linger in the kernel (FIN-WAIT-2) while a silent
    client never answers, but the process no longer holds it."""
    held = socket_inodes(pid)
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            # fields[3] is the state (0A: listening), fields[9] the inode.
            if len(fields) > 9 and fields[3] != "0A" and fields[9] in held:
                count += 1
    return count


# --- HTTP ---------------------------------------------------------------------------


@dataclass
class Answer:
    """One response: status, header fields in order, and the body (chunked framing removed)."""

    status: int
    reason: str
    headers: list[tuple[str, str]]
    body: bytes

    def header_text(self) -> str:
        """The head as a server writes it (and as `curl -D` saves it): status line, fields, blank line."""
        lines = [f"HTTP/1.1 {self.status} {self.reason}"] + [f"{name}: {value}" for name, value in self.headers]
        return "\r\n".join(lines) + "\r\n\r\n"

    def header(self, name: str) -> str | None:
        """The first field called `name` (in any case), if any."""
        return next((value for field, value in self.headers if field.lower() == name.lower()), None)

    @property
    def text(self) -> str:
        """The body as UTF-8 text."""
        return self.body.decode("utf-8", "replace")

    def size(self) -> int:
        """Head and body: about what wrk reads for this answer."""
        return len(self.header_text().encode()) + len(self.body)


def request(port: int, target: str, cookie: str | None = None, method: str = "GET",
            body: str | None = None, headers: dict[str, str] | None = None, timeout: float = 30) -> Answer:
    """One request on a connection of its own."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        fields = dict(headers or {})
        if cookie:
            fields["Cookie"] = cookie
        connection.request(method, target, body=body, headers=fields)
        response = connection.getresponse()
        return Answer(response.status, response.reason, response.getheaders(), response.read())
    finally:
        connection.close()


def sign_in(port: int, name: str, password: str, timeout: float = 300) -> str:
    """Signs in on a feed-server (POST /signin) and returns the Cookie field
    of its session ("sectional_session=..."). A session lives in the server
    that made it: each server started needs its own. The long timeout is for
    the password hash under valgrind."""
    form = urllib.parse.urlencode({"name": name, "password": password})
    try:
        answer = request(port, "/signin", method="POST", body=form, timeout=timeout,
                         headers={"Content-Type": "application/x-www-form-urlencoded"})
    except OSError as error:
        raise Failure(f"could not sign in on port {port}: {error}") from None
    for field, value in answer.headers:
        match = SESSION_COOKIE.search(value) if field.lower() == "set-cookie" else None
        if answer.status == 303 and match:
            return match.group(1)
    raise Failure(f"signing in as {name} on port {port} answered {answer.status} without a session cookie")


@dataclass(frozen=True)
class DemoUser:
    """The demo user a signed-in run signs in as (SIGN_IN_NAME, SIGN_IN_PASSWORD),
    and how long its session may sit unused (SESSION_IDLE: long, so that no
    session ends in a long run's pauses)."""

    name: str
    password: str
    session_idle: str

    @classmethod
    def from_environment(cls) -> DemoUser:
        name = env_text("SIGN_IN_NAME", "alex")
        return cls(name=name, password=env_text("SIGN_IN_PASSWORD", DEMO_USERS.get(name, "")),
                   session_idle=env_text("SESSION_IDLE", "12h"))

    def sign_in(self, port: int) -> str:
        """The Cookie field of a new session on the server at `port`."""
        return sign_in(port, self.name, self.password)


def healthy(port: int) -> bool:
    """Whether the server still answers /healthz with a 2xx within 5 s."""
    try:
        return 200 <= request(port, "/healthz", timeout=5).status < 300
    except OSError:
        return False


def keeps_alive(port: int, target: str, cookie: str | None = None) -> bool:
    """Whether two requests for a target go over one connection (the first
    answer neither says nor does close)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        headers = {"Cookie": cookie} if cookie else {}
        connection.request("GET", target, headers=headers)
        first = connection.getresponse()
        first.read()
        socket_used = connection.sock
        if first.will_close or socket_used is None:
            return False
        connection.request("GET", target, headers=headers)
        second = connection.getresponse()
        second.read()
        return connection.sock is socket_used
    except (OSError, http.client.HTTPException):
        return False
    finally:
        connection.close()


def send_requests(port: int, target: str, count: int, cookie: str | None = None, timeout: float = 300) -> int:
    """Sends a target `count` times over one keep-alive connection, as a
    browser would. Fails unless every answer is 200; returns how many
    connections were opened (1 when keep-alive held)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Cookie": cookie} if cookie else {}
    connects, last_socket, bad = 0, None, 0
    try:
        for _ in range(count):
            connection.request("GET", target, headers=headers)
            if connection.sock is not last_socket:
                connects += 1
                last_socket = connection.sock
            response = connection.getresponse()
            response.read()
            bad += response.status != 200
    except (OSError, http.client.HTTPException) as error:
        raise Failure(f"requests to {target} on port {port} failed: {error}") from None
    finally:
        connection.close()
    if bad:
        raise Failure(f"{bad} of {count} answers to {target} on port {port} were not 200")
    return connects


# --- wrk ------------------------------------------------------------------------------


def wrk(port: int, duration: float, script: str, target: str, targets: list[str] = (),
        cookie: str | None = None, connections: int = 64, threads: int = 1, headers: tuple[str, ...] = ()) -> dict[str, int]:
    """Runs wrk against a port with a Lua script that reports through
    Benchmarks/report.lua, and returns that line's fields (requests,
    duration_us, bytes, p50_us, p90_us, p99_us, max_us, errors_*). Each
    request carries the cookie and `headers` ("Name: value")."""
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{max(1, round(duration))}s", "-s", f"Benchmarks/{script}"]
    if cookie:
        command += ["-H", f"Cookie: {cookie}"]
    for header in headers:
        command += ["-H", header]
    command.append(f"http://127.0.0.1:{port}{target}")
    if targets:
        command += ["--", *targets]
    result = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    line = next((line for line in result.stdout.splitlines() if line.startswith("WRK ")), None)
    if result.returncode != 0 or line is None:
        raise Failure(f"wrk failed on port {port} ({' '.join(command)}):\n{result.stdout}{result.stderr}")
    return {key: int(value) for key, value in (field.split("=", 1) for field in line.split()[1:])}


def wrk_errors(fields: dict[str, int]) -> int:
    """Socket errors, timeouts and answers with a status outside 2xx and 3xx."""
    return sum(fields[f"errors_{kind}"] for kind in ("connect", "read", "write", "status", "timeout"))


def requests_per_second(fields: dict[str, int]) -> float:
    return fields["requests"] / (fields["duration_us"] / 1e6) if fields["duration_us"] else 0.0


def median(values) -> float:
    """The median, 0 for no values (a step that was skipped)."""
    values = list(values)
    return statistics.median(values) if values else 0


# --- tools and builds ------------------------------------------------------------------


def ensure_tools(tools: list[str], packages: list[str] | None = None) -> None:
    """Installs the Debian packages for missing tools (apt-get, as root), or
    stops with the command to run."""
    missing = [tool for tool in tools if shutil.which(tool) is None]
    if not missing:
        return
    packages = packages or missing
    if os.geteuid() != 0:
        raise Failure(f"missing {' '.join(missing)}. Run: sudo apt-get install -y {' '.join(packages)}")
    say(f"installing {' '.join(packages)}")
    environment = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    for command in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", *packages]):
        if subprocess.run(command, env=environment, stdout=subprocess.DEVNULL).returncode != 0:
            raise Failure(f"{' '.join(command)} failed")


def build_release(release_build: str, log: Path, package_path: str | None = None,
                  scratch: str | None = None) -> Path:
    """Builds a package in release (the command the Makefile's RELEASE_BUILD
    names, so that the measured binary is the shipped one) and returns its
    binary folder. The build's output goes to `log`; its end is shown on failure."""
    command = shlex.split(release_build)
    if package_path:
        command += ["--package-path", package_path]
    if scratch:
        command += ["--scratch-path", scratch]
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "wb") as output:
        if subprocess.run(command, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT).returncode != 0:
            tail = "\n".join(log.read_text(errors="replace").splitlines()[-20:])
            raise Failure(f"release build failed ({' '.join(command)}):\n{tail}")
    shown = subprocess.run(command + ["--show-bin-path"], cwd=ROOT, capture_output=True, text=True)
    if shown.returncode != 0:
        raise Failure(f"{' '.join(command)} --show-bin-path failed: {shown.stderr}")
    return Path(shown.stdout.strip().splitlines()[-1])


def commit() -> tuple[str, bool]:
    """The checked-out commit and whether tracked files have uncommitted changes."""
    head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    status = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                            capture_output=True, text=True)
    return (head.stdout.strip() or "unknown"), bool(status.stdout.strip())


# --- running a script ----------------------------------------------------------------


def main(name: str, function) -> None:
    """Runs a script's body from the repository root: progress lines named
    `name`, every started process stopped at the end (signals included), a
    Failure reported as "NAME: error: ..." with exit status 1. The body
    returns the exit status (0 when it held)."""
    global _name, _started_at
    _name, _started_at = name, time.monotonic()
    os.chdir(ROOT)
    atexit.register(stop_all)
    for number in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, _interrupted)
    status = 1
    try:
        status = function()
    except Failure as failure:
        print(f"{name}: error: {failure}", file=sys.stderr)
        status = 1
    except KeyboardInterrupt:
        print(f"{name}: interrupted", file=sys.stderr)
        status = 130
    except SystemExit as exit_request:
        status = exit_request.code if isinstance(exit_request.code, int) else 1
        if status > 128:
            print(f"{name}: stopped by signal {status - 128}", file=sys.stderr)
    finally:
        # A second interrupt must not cut the clean-up short.
        for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            signal.signal(number, signal.SIG_IGN)
        stop_all()
    sys.exit(status)
