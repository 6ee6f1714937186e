#!/usr/bin/env bash
# Runs feed-server and starts it again whenever it dies of a signal: a Swift
# trap (an index out of range, a force unwrap of nil, a fatalError) ends the
# whole process, and `make run` should not stay down for it. The runtime has
# printed the trap's backtrace to standard error by then; this adds one line.
# A clean stop (exit 0, e.g. Ctrl-C) or a refusal to start (exit 1 or 2: a
# bad flag, a busy port) ends the loop: starting again would not help.
#
# Usage: scripts/run-restarting.sh BINARY [ARGS...]
set -uo pipefail

while true; do
    "$@"
    status=$?
    if ((status < 128)); then exit "$status"; fi
    echo "run-restarting: feed-server died of signal $((status - 128)) (its backtrace is above); starting it again" >&2
    sleep 1
done
