#!/usr/bin/env python3
"""An attacker for `make abuse`: connections that never finish their request head.

Opens PER_ADDRESS connections from each of ADDRESSES loopback source addresses
(each address under the server's per-client limit), sends part of a request
head on each, then one more byte every few seconds so that no idle timeout
ever fires, and opens a new connection (at most RATE a second) whenever the
server closes one. Runs for SECONDS, then closes everything and prints a JSON
summary: connections opened and how many the server closed.

Usage: head-holders.py PORT SECONDS [ADDRESSES] [PER_ADDRESS] [RATE]
"""
import json
import resource
import selectors
import socket
import sys
import time

PARTIAL_HEAD = b"GET /feed HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
TRICKLE_SECONDS = 4


def main():
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    addresses = [f"127.0.0.{2 + i}" for i in range(int(sys.argv[3]) if len(sys.argv) > 3 else 5)]
    per_address = int(sys.argv[4]) if len(sys.argv) > 4 else 220
    rate = float(sys.argv[5]) if len(sys.argv) > 5 else 200
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 8192), hard))

    selector = selectors.DefaultSelector()
    held = {address: 0 for address in addresses}
    opened = closed = refused = 0
    last_trickle = {}
    deadline = time.monotonic() + seconds
    budget, budget_time = rate, time.monotonic()

    def open_one(address):
        nonlocal opened, refused
        try:
            connection = socket.create_connection(("127.0.0.1", port), timeout=2, source_address=(address, 0))
            connection.sendall(PARTIAL_HEAD)
            connection.setblocking(False)
        except OSError:
            refused += 1
            return
        selector.register(connection, selectors.EVENT_READ, address)
        held[address] += 1
        opened += 1
        last_trickle[connection] = time.monotonic()

    while time.monotonic() < deadline:
        now = time.monotonic()
        budget = min(rate, budget + (now - budget_time) * rate)
        budget_time = now
        for address in addresses:
            while held[address] < per_address and budget >= 1:
                open_one(address)
                budget -= 1
        for key, _ in selector.select(timeout=0.05):
            connection = key.fileobj
            try:
                data = connection.recv(4096)
            except OSError:
                data = b""
            if not data:  # the server closed it (or answered it: it never should before the head ends)
                selector.unregister(connection)
                last_trickle.pop(connection, None)
                connection.close()
                held[key.data] -= 1
                closed += 1
        for connection, sent in list(last_trickle.items()):
            if now - sent >= TRICKLE_SECONDS:
                try:
                    connection.send(b"a")
                except OSError:
                    pass
                last_trickle[connection] = now

    for key in list(selector.get_map().values()):
        key.fileobj.close()
    print(json.dumps({"addresses": len(addresses), "per_address": per_address, "opened": opened,
                      "closed_by_server": closed, "refused": refused}))


if __name__ == "__main__":
    main()
