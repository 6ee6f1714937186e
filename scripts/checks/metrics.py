#!/usr/bin/env python3
"""Metrics and machine-readable logs, for `make test`: starts feed-server
with a metrics listener and the JSON access log, makes requests, and checks
what an operator's tools would read.

- /metrics parses with a real Prometheus parser (prometheus-client's text
  parser), has every family the README promises with its type, and its
  counters move by exactly the requests made between two scrapes;
- the metrics listener is not the public port (/metrics there is a 404 or a
  sign-in redirect, never the metrics);
- standard output holds one JSON object per access-log line and nothing else.

Usage: check-metrics.py --binary PATH --public DIR
"""
import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from checks import harness

FAMILIES = {
    "sectional_http_requests": "counter",
    "sectional_http_request_duration_seconds": "histogram",
    "sectional_section_load_duration_seconds": "histogram",
    "sectional_http_requests_in_flight": "gauge",
    "sectional_db_pool_connections": "gauge",
    "sectional_db_pool_in_use": "gauge",
    "sectional_db_pool_wait_seconds": "counter",
    "sectional_section_cache_hits": "counter",
    "sectional_section_cache_misses": "counter",
    "sectional_section_cache_evictions": "counter",
    "sectional_section_cache_bytes": "gauge",
    "sectional_live_streams": "gauge",
    "process_resident_memory_bytes": "gauge",
    "process_cpu_seconds": "counter",
    "process_open_fds": "gauge",
}
failures = []


def check(name, ok, detail=""):
    print(("ok    " if ok else "FAIL  ") + name + ("" if ok or not detail else f": {detail}"), flush=True)
    if not ok:
        failures.append(name)


def scrape(port):
    answer = harness.request(port, "/metrics", timeout=10)
    assert answer.status == 200, f"/metrics answered {answer.status}"
    families = {family.name: family for family in text_string_to_metric_families(answer.text)}
    return answer, families


def value(families, family, sample, **labels):
    for s in families[family].samples if family in families else []:
        if s.name == sample and all(s.labels.get(k) == v for k, v in labels.items()):
            return s.value
    return 0.0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", required=True)
    parser.add_argument("--public", required=True)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="check-metrics-") as work:
        stdout = open(f"{work}/stdout", "w+")
        stderr = open(f"{work}/stderr", "w+")
        server = subprocess.Popen(
            [args.binary, "--port", "0", "--metrics-port", "0", "--public", args.public, "--drain", "0s",
             "--database", f"sqlite:{work}/metrics.sqlite", "--log-format", "json"],
            stdout=stdout, stderr=stderr)
        try:
            ports = {}
            deadline = time.monotonic() + 20
            while len(ports) < 2 and time.monotonic() < deadline and server.poll() is None:
                stderr.seek(0)
                log = stderr.read()
                for kind, port in re.findall(r"(metrics|listening) on http://127\.0\.0\.1:(\d+)/", log):
                    ports[kind] = int(port)
                time.sleep(0.1)
            if len(ports) < 2:
                stderr.seek(0)
                print(stderr.read(), file=sys.stderr)
                check("feed-server started with a metrics listener", False)
                return 1
            app, metrics = ports["listening"], ports["metrics"]
            check("the metrics listener is its own port", app != metrics)

            cookie = harness.sign_in(app, "alex", harness.DEMO_USERS["alex"])

            first, before = scrape(metrics)
            content_type = first.header("Content-Type") or ""
            check("/metrics is Prometheus text 0.0.4", content_type.startswith("text/plain; version=0.0.4"), content_type)
            harness.request(app, "/feed?stream=0", cookie=cookie, timeout=10)  # its sections loaded
            harness.request(app, "/feed", cookie=cookie, timeout=10)  # made again from the kept sections
            harness.request(app, "/feed?stream=0", cookie=cookie, timeout=10)  # sent again as it was kept
            harness.request(app, "/feed/sections/alerts", cookie=cookie, timeout=10)
            harness.request(app, "/nope", cookie=cookie, timeout=10)
            harness.request(app, "/api/feed/sections", timeout=10)  # no credentials: a 401
            # A request is counted once libmicrohttpd reports it complete, just after its last
            # byte went out: a scrape right after the answer may come first. Wait for the last.
            unauthorized = {"route": "/api/feed/sections", "method": "GET", "status": "401"}
            settle = time.monotonic() + 5
            while True:
                _, after = scrape(metrics)
                counted = value(after, "sectional_http_requests", "sectional_http_requests_total", **unauthorized)
                if counted > value(before, "sectional_http_requests", "sectional_http_requests_total", **unauthorized) \
                        or time.monotonic() > settle:
                    break
                time.sleep(0.05)

            for name, kind in FAMILIES.items():
                check(f"{name} is a {kind}", name in after and after[name].type == kind,
                      after[name].type if name in after else "missing")

            def moved(labels, expected):
                delta = value(after, "sectional_http_requests", "sectional_http_requests_total", **labels) - \
                    value(before, "sectional_http_requests", "sectional_http_requests_total", **labels)
                check(f"requests_total{labels} moved by {expected}", delta == expected, f"moved by {delta}")

            moved({"route": "/feed", "method": "GET", "status": "200"}, 3)
            moved({"route": "/feed/sections/{id}", "method": "GET", "status": "200"}, 1)
            moved({"route": "unmatched", "method": "GET", "status": "404"}, 1)
            moved({"route": "/api/feed/sections", "method": "GET", "status": "401"}, 1)
            count = value(after, "sectional_http_request_duration_seconds", "sectional_http_request_duration_seconds_count", route="/feed")
            check("the /feed duration histogram counted the pages", count >= 3, f"{count}")
            loads = value(after, "sectional_section_load_duration_seconds", "sectional_section_load_duration_seconds_count",
                          page="feed", section="balances", outcome="ok")
            # The first page loads its sections; the second is made from them, kept; the third is sent as it was.
            check("section loads are counted by page, section and outcome", loads >= 1, f"{loads}")
            hits = value(after, "sectional_section_cache_hits", "sectional_section_cache_hits_total")
            check("sections served as kept are counted", hits >= 3, f"{hits}")
            check("what the cache holds is reported", value(after, "sectional_section_cache_bytes", "sectional_section_cache_bytes") > 0)
            check("resident memory is reported", value(after, "process_resident_memory_bytes", "process_resident_memory_bytes") > 1e6)
            check("open files are reported", value(after, "process_open_fds", "process_open_fds") >= 3)
            check("the pool's size is reported", value(after, "sectional_db_pool_connections", "sectional_db_pool_connections") >= 1)

            public = harness.request(app, "/metrics", cookie=cookie, timeout=10)
            check("the public port does not serve the metrics", "sectional_http_requests_total" not in public.text, f"{public.status}")
        finally:
            server.terminate()
            server.wait(timeout=15)
        stdout.seek(0)
        lines = [line for line in stdout.read().splitlines() if line]
        objects = []
        for line in lines:
            try:
                objects.append(json.loads(line))
            except ValueError:
                check("standard output holds only JSON lines", False, line[:120])
                break
        check("one JSON access-log line per request", len(objects) >= 7, f"{len(objects)} lines")
        fields = {"time", "method", "path", "status", "bytes", "duration_us"}
        check("each line has time, method, path, status, bytes and duration_us", all(fields <= set(o) for o in objects))
        feed = [o for o in objects if o.get("path") == "/feed?stream=0"]
        check("a signed-in page's line names its user", bool(feed) and all(o.get("user") == "1" for o in feed), f"{feed[:1]}")
        check("a whole page's line has its section timings", bool(feed) and "load-balances" in feed[0].get("timings", {})
              and "render-balances" in feed[0].get("timings", {}))
        check("a page sent again as it was kept says so in its line", len(feed) == 2 and list(feed[1].get("timings", {})) == ["kept"],
              f"{feed[1:]}")
    print("check-metrics: " + ("all passed" if not failures else f"{len(failures)} failed"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
