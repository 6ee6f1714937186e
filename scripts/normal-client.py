#!/usr/bin/env python3
"""A well-behaved client for `make abuse`: fetches a page in a loop, one new
connection per request, from its own loopback source address, and prints a
JSON summary of its latencies and failures.

Usage: [SECTIONAL_COOKIE=sectional_session=...] normal-client.py PORT SECONDS [PATH] [SOURCE_ADDRESS] [PAUSE_MS]

SECTIONAL_COOKIE, when set, is sent as the Cookie field of every request: a
signed-in session (POST /signin), without which a page is a 303 to /signin,
which counts as a failure here.
"""
import http.client
import json
import os
import sys
import time


def main():
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    path = sys.argv[3] if len(sys.argv) > 3 else "/feed"
    source = sys.argv[4] if len(sys.argv) > 4 else "127.0.0.2"
    pause = (float(sys.argv[5]) if len(sys.argv) > 5 else 20.0) / 1000
    headers = {"Connection": "close"}
    if os.environ.get("SECTIONAL_COOKIE"):
        headers["Cookie"] = os.environ["SECTIONAL_COOKIE"]
    latencies, failures, errors = [], 0, []
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        start = time.monotonic()
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5, source_address=(source, 0))
            connection.request("GET", path, headers=headers)
            response = connection.getresponse()
            body = response.read()
            connection.close()
            if response.status != 200 or not body.rstrip().endswith(b"</html>"):
                where = response.getheader("Location")
                raise RuntimeError("status %d, %d bytes%s" % (response.status, len(body), " to " + where if where else ""))
            latencies.append((time.monotonic() - start) * 1000)
        except Exception as error:  # every failure counts, whatever it is
            failures += 1
            if len(errors) < 5:
                errors.append("%s: %s" % (type(error).__name__, error))
        time.sleep(pause)
    latencies.sort()

    def percentile(p):
        return round(latencies[min(len(latencies) - 1, int(len(latencies) * p))], 2) if latencies else None

    print(json.dumps({"requests": len(latencies) + failures, "failures": failures, "p50_ms": percentile(0.50),
                      "p99_ms": percentile(0.99), "max_ms": round(latencies[-1], 2) if latencies else None,
                      "errors": errors}))


if __name__ == "__main__":
    main()
