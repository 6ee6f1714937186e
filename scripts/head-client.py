#!/usr/bin/env python3
"""HEAD requests for `make soak`, beside wrk (whose parser waits for the body
a HEAD answer announces but never sends). Sends HEAD for a page, a streamed
page and a static file in turn over keep-alive connections until SIGTERM,
then prints a JSON summary: answers by status, and failures.

Usage: [SECTIONAL_COOKIE=sectional_session=...] head-client.py PORT

SECTIONAL_COOKIE, when set, is sent as the Cookie field of every request: a
signed-in session (POST /signin); signed out, the pages answer 303 and the
API 401, failures here.
"""
import http.client
import json
import os
import signal
import sys
import time

TARGETS = ["/feed", "/styles.css", "/day?date=2026-11-03", "/feed/sections/alerts", "/api/feed/sections"]
statuses, failures, errors = {}, 0, []
running = True


def stop(*_):
    global running
    running = False


def main():
    global failures
    signal.signal(signal.SIGTERM, stop)
    port = int(sys.argv[1])
    headers = {"Cookie": os.environ["SECTIONAL_COOKIE"]} if os.environ.get("SECTIONAL_COOKIE") else {}
    connection = None
    index = 0
    while running:
        target = TARGETS[index % len(TARGETS)]
        index += 1
        try:
            if connection is None:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("HEAD", target, headers=headers)
            response = connection.getresponse()
            response.read()  # nothing, for HEAD; keeps the connection usable
            statuses[str(response.status)] = statuses.get(str(response.status), 0) + 1
            if response.status != 200:
                raise RuntimeError("HEAD %s answered %d" % (target, response.status))
        except Exception as error:  # every failure counts
            failures += 1
            if len(errors) < 5:
                errors.append("%s: %s" % (type(error).__name__, error))
            if connection is not None:
                connection.close()
            connection = None
        time.sleep(0.001)
    print(json.dumps({"statuses": statuses, "failures": failures, "errors": errors}))


if __name__ == "__main__":
    main()
