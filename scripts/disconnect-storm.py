#!/usr/bin/env python3
"""Clients that leave mid-page, for `make soak`: each opens a connection,
asks for PATH, reads the first bytes of the answer and hangs up, COUNT times
in all from THREADS threads at once, each thread from a loopback address of
its own (127.0.0.10 and up), so that the server's per-client limit counts
each as one visitor, pausing PAUSE_MS between its requests: a page whose
client left is noticed at its next write, so the pause keeps the pages still
open under the server's limits. Prints a JSON summary with the first errors.

Usage: [SECTIONAL_COOKIE=sectional_session=...] disconnect-storm.py PORT COUNT [PATH] [THREADS] [PAUSE_MS]

SECTIONAL_COOKIE, when set, is sent as the Cookie field of every request: a
signed-in session (POST /signin); signed out, a page is a 303, not a page
left mid-way, and counts as a failure.
"""
import json
import os
import socket
import sys
import threading
import time


def main():
    port, count = int(sys.argv[1]), int(sys.argv[2])
    path = sys.argv[3] if len(sys.argv) > 3 else "/feed"
    threads = int(sys.argv[4]) if len(sys.argv) > 4 else 16
    pause = (float(sys.argv[5]) if len(sys.argv) > 5 else 20) / 1000
    cookie = os.environ.get("SECTIONAL_COOKIE")
    cookie_field = f"Cookie: {cookie}\r\n" if cookie else ""
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{cookie_field}\r\n".encode()
    lock = threading.Lock()
    done = {"left": 0, "failed": 0, "remaining": count, "errors": []}

    def storm(source):
        while True:
            with lock:
                if done["remaining"] == 0:
                    return
                done["remaining"] -= 1
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as connection:
                    connection.sendall(request)
                    first = connection.recv(4096)
                    if not first.startswith(b"HTTP/1.1 200"):
                        raise RuntimeError(first[:40])
                with lock:
                    done["left"] += 1
            except Exception as error:  # every failure counts, whatever it is
                with lock:
                    done["failed"] += 1
                    if len(done["errors"]) < 5:
                        done["errors"].append(f"{type(error).__name__}: {error}")
            time.sleep(pause)

    workers = [threading.Thread(target=storm, args=(f"127.0.0.{10 + index}",)) for index in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    print(json.dumps({"left_mid_page": done["left"], "failed": done["failed"], "errors": done["errors"]}))


if __name__ == "__main__":
    main()
