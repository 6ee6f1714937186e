#!/usr/bin/env bash
# `make abuse`: slow and abusive clients against a running release
# feed-server, on loopback only, each attack bounded in time.
#
#  1. Builds feed-server (release) and starts it on a free port of 127.0.0.1
#     with the default ServerConfiguration (see ServerConfiguration.swift for
#     the limits and why), and signs in (POST /signin as a demo user;
#     --session-idle SESSION_IDLE, 12h): the normal client and slowhttptest
#     send that session's cookie, so that /feed is the page, not a 303 to
#     /signin (a few hundred bytes: no load for a slow reader).
#  2. Baseline: the normal client (scripts/normal-client.py) fetches /feed in a
#     loop, one new connection per request, for NORMAL_SECONDS.
#  3. For each attack, slowhttptest opens ATTACK_CONNECTIONS connections from
#     127.0.0.1 for ATTACK_SECONDS: slowloris (headers trickled, one field every
#     10 s) and slow read (a tiny receive window, 32 bytes read every 5 s,
#     each request repeated 3 times on its connection). Once the attack is at
#     full strength, the normal client runs again, from 127.0.0.2: a different
#     client address, so that the server's per-client connection limit, which
#     is what stops one attacker from taking every connection, does not count
#     the normal client among the attacker's connections (as it would not count
#     a real visitor). Its p99 must stay under P99_LIMIT_MS and no request of it
#     may fail.
#  4. Then the attacker is frozen (SIGSTOP): its connections stay open but
#     silent, like clients that vanished without closing. The connections
#     the server holds (its socket descriptors, less the listening one) must
#     fall back to idle (none) by its own timeout, within IDLE_DEADLINE
#     seconds, and the server must still answer. The attacker is then killed.
#  5. Many addresses: scripts/head-holders.py holds 220 connections from each
#     of 127.0.0.2 to 127.0.0.6 (each address under the per-client limit, 1,100
#     in all, past the connection limit), none of which ever finishes its
#     request head, reconnecting whenever the server closes one. The normal
#     client, from 127.0.0.7, must be served throughout: the server closes
#     connections whose head is overdue and, when full, the one that has
#     waited longest for a head, to make room. Then the server must return
#     to idle once the attacker stops.
#  6. Prints a table; exits 1 when anything did not hold.
#
# Environment: ATTACK_CONNECTIONS (1000), ATTACK_SECONDS (30), NORMAL_SECONDS
# (the normal client's run, default ATTACK_SECONDS - 12), P99_LIMIT_MS (100),
# RELEASE_BUILD, HOSTILE_SCRATCH (a --scratch-path for the release build),
# SIGN_IN_NAME and SIGN_IN_PASSWORD (a demo user), SESSION_IDLE (12h).
set -euo pipefail
cd "$(dirname "$0")/.."

readonly ATTACK_CONNECTIONS=${ATTACK_CONNECTIONS:-1000}
readonly ATTACK_SECONDS=${ATTACK_SECONDS:-30}
readonly NORMAL_SECONDS=${NORMAL_SECONDS:-$((ATTACK_SECONDS > 20 ? ATTACK_SECONDS - 12 : 8))}
readonly P99_LIMIT_MS=${P99_LIMIT_MS:-100}
readonly RELEASE_BUILD=${RELEASE_BUILD:-swift build -c release --static-swift-stdlib}
readonly OUT=.build/abuse
# The idle timeout of ServerConfiguration's default, plus a margin for the sweep.
readonly IDLE_DEADLINE=${IDLE_DEADLINE:-25}
say() { printf 'abuse: [%3ds] %s\n' "$SECONDS" "$*" >&2; }
die() { printf 'abuse: error: %s\n' "$*" >&2; exit 1; }

for tool in slowhttptest python3 curl; do command -v $tool >/dev/null || die "$tool is missing (make hostile-tools installs it)"; done
mkdir -p "$OUT"
# 1,000 attack sockets, and as many on the server's side.
ulimit -n 8192 2>/dev/null || ulimit -n "$(ulimit -Hn)"

# Builds the release binary ($binary), stops $pids on exit, defines sign_in.
source scripts/release-server.sh

"$binary" --port 0 --quiet --public Public --database memory: --session-idle "$SESSION_IDLE" --drain 0s >"$OUT/server.log" 2>&1 &
server=$!
pids+=("$server")
for _ in $(seq 100); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/feed.*|\1|p' "$OUT/server.log")
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n ${port:-} ]] || die "feed-server did not start (see $OUT/server.log)"
sign_in "$port"
say "feed-server pid $server on 127.0.0.1:$port, signed in as $SIGN_IN_NAME"

# The connections the server holds: its open socket descriptors, less those
# it holds when idle (the listening socket). Counted in the process itself:
# a socket the server has closed may linger in the kernel (FIN-WAIT-2) while
# a silent client never answers, but the server no longer holds it.
socket_descriptors() {
    find "/proc/$server/fd" -lname 'socket:*' 2>/dev/null | wc -l
}
idle_sockets=$(socket_descriptors)
server_connections() {
    echo $(( $(socket_descriptors) - idle_sockets ))
}

declare -A ROW
failed=0
fail() { failed=1; say "FAILED: $*"; }

run_normal() {  # name seconds [source address]
    SECTIONAL_COOKIE=$cookie python3 scripts/normal-client.py "$port" "$2" /feed "${3:-127.0.0.2}" >"$OUT/normal-$1.json"
    cat "$OUT/normal-$1.json"
}

json() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])' "$1" "$2"; }

check_normal() {  # name
    local file=$OUT/normal-$1.json
    local p99 failures requests
    p99=$(json "$file" p99_ms) failures=$(json "$file" failures) requests=$(json "$file" requests)
    ROW[$1]="$requests requests, $failures failed, p50 $(json "$file" p50_ms) ms, p99 $p99 ms, max $(json "$file" max_ms) ms"
    ((failures == 0)) || fail "$1: $failures of the normal client's requests failed: $(json "$file" errors)"
    python3 -c "import sys; sys.exit(0 if $p99 < $P99_LIMIT_MS else 1)" || fail "$1: p99 $p99 ms is not under $P99_LIMIT_MS ms"
}

say "baseline: normal client alone for 5 s"
run_normal baseline 5 >/dev/null
check_normal baseline

attack() {  # name slowhttptest-arguments...
    local name=$1; shift
    say "$name: $ATTACK_CONNECTIONS connections for ${ATTACK_SECONDS}s"
    # It would run longer than ATTACK_SECONDS: it is frozen and then killed below.
    slowhttptest "$@" -c "$ATTACK_CONNECTIONS" -r 200 -l "$((ATTACK_SECONDS + 60))" -p 3 -j "$cookie" \
        -u "http://127.0.0.1:$port/feed" >"$OUT/slowhttptest-$name.log" 2>&1 &
    local attacker=$!
    pids+=("$attacker")
    sleep 7  # 1,000 connections at 200 a second, and a margin
    local peak
    peak=$(server_connections)
    say "$name: the server holds $peak connections; normal client from 127.0.0.2 for ${NORMAL_SECONDS}s"
    run_normal "$name" "$NORMAL_SECONDS" >/dev/null
    local during
    during=$(server_connections)
    # Freeze the attacker: its connections stay open but fall silent, as a
    # client that vanished without closing would. Only the server's own
    # timeout can free them now.
    # (slowhttptest may have ended already: the head deadline closed every slowloris connection.)
    kill -STOP "$attacker" 2>/dev/null || say "$name: the attacker had already ended, the server having closed its connections"
    # slowhttptest's last status block: how many of its connections were ever
    # connected, and how many it still held when it stopped.
    local report
    # (Its "service available" probe comes from 127.0.0.1 too, so the
    # per-client limit refuses it like any further attacking connection.)
    report=$(tr '\r' '\n' <"$OUT/slowhttptest-$name.log" | sed 's/\x1b\[[0-9;]*m//g' \
        | grep -E "^\s*(connected|closed|error|service available):" | tail -n 4 | tr -s ' \t' ' ' | paste -sd ';' - || true)
    local start=$SECONDS idle
    while idle=$(server_connections); ((idle > 0 && SECONDS - start < IDLE_DEADLINE)); do sleep 1; done
    ((idle == 0)) || fail "$name: $idle connections still open ${IDLE_DEADLINE}s after the attacker froze"
    kill -KILL "$attacker" 2>/dev/null || true
    wait "$attacker" 2>/dev/null || true
    curl -fsS --max-time 5 "http://127.0.0.1:$port/healthz" >/dev/null || fail "$name: the server no longer answers"
    kill -0 "$server" 2>/dev/null || fail "$name: the server died"
    check_normal "$name"
    ROW[$name]+=" | server connections: $peak at full attack, $during at its end, none $((SECONDS - start))s after the attacker froze | attacker:$report"
}

attack slowloris -H -i 10 -x 24 -t GET
attack slow-read -X -k 3 -w 512 -y 1024 -n 5 -z 32

# Unfinished heads from five addresses, 1,100 connections: past the connection limit.
say "many-addresses: 5 x 220 unfinished heads for ${ATTACK_SECONDS}s"
python3 scripts/head-holders.py "$port" "$ATTACK_SECONDS" 5 220 >"$OUT/head-holders.json" &
holders=$!
pids+=("$holders")
sleep 8  # 1,100 connections at 200 a second
peak=$(server_connections)
say "many-addresses: the server holds $peak connections; normal client from 127.0.0.7 for ${NORMAL_SECONDS}s"
run_normal many-addresses "$NORMAL_SECONDS" 127.0.0.7 >/dev/null
wait "$holders" || fail "many-addresses: the attacker failed"
start=$SECONDS
while idle=$(server_connections); ((idle > 0 && SECONDS - start < IDLE_DEADLINE)); do sleep 1; done
((idle == 0)) || fail "many-addresses: $idle connections still open ${IDLE_DEADLINE}s after the attack"
curl -fsS --max-time 5 "http://127.0.0.1:$port/healthz" >/dev/null || fail "many-addresses: the server no longer answers"
check_normal many-addresses
ROW[many-addresses]+=" | server connections: $peak at full attack, none $((SECONDS - start))s after it | attacker: $(cat "$OUT/head-holders.json")"

printf '\n%-14s %s\n' run "normal client (127.0.0.2; 127.0.0.7 for many-addresses) | server"
for name in baseline slowloris slow-read many-addresses; do printf '%-14s %s\n' "$name" "${ROW[$name]:-not run}"; done
if ((failed)); then echo "abuse: FAILED"; else echo "abuse: held: p99 under ${P99_LIMIT_MS} ms, no failed request, back to idle"; fi
exit $failed
