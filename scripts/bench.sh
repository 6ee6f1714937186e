#!/usr/bin/env bash
# `make bench`: feed-server against the ceiling, a minimal C libmicrohttpd
# server (Benchmarks/ceiling.c) that answers with the same bytes pre-rendered.
#
#  1. Builds feed-server (release) and the ceiling; installs wrk, valgrind and
#     curl when missing.
#  2. Starts feed-server (--quiet, default thread count) on a free loopback
#     port and signs in there (POST /signin as a demo user; --session-idle
#     SESSION_IDLE, so that the session outlives the run): every request that
#     follows, to either server, carries its session cookie, as a browser's
#     would. Saves the exact response (headers and body) it gives the signed-in
#     user for each measured route, and starts the ceiling with those
#     responses, on another free port and with the same thread count. Checks
#     that both answer every route with the same body and keep connections
#     alive, and that wrk's answers are as large as those pages (a 303 to
#     /signin or a 401, a lost session, is much smaller: the run stops).
#  3. Memory: resident size (VmRSS) of each server after a warm-up of WARMUP
#     seconds, and again after MEMORY_REQUESTS more requests, all routes in turn.
#  4. Throughput: for each route, RUNS runs of `wrk -t1 -c64` of DURATION
#     seconds per server, the two servers taking turns (ABBA order); median
#     requests/s of each, the ratio feed-server / ceiling, median p50 and p99.
#  5. Instructions per /feed request under `valgrind --tool=callgrind`, each
#     server run with one thread (feed-server signed in first, the ceiling sent
#     the same cookie): CALLGRIND_WARMUP requests, then
#     CALLGRIND_REQUESTS more over the same keep-alive connection; callgrind
#     dumps its counts after each batch, so the second dump holds the measured
#     requests only (startup, warm-up and shutdown excluded). Where the dump
#     cannot be triggered (callgrind_control needs ptrace), two runs with
#     different request counts are compared instead.
#  6. Prints a table and writes everything to .build/bench/results.json.
#
# Every process it starts is stopped on exit, failure or interrupt included.
#
# Environment (make passes the first five): QUICK (set and not 0: fewer,
# shorter runs, under a minute), MAKE, SWIFT, RELEASE_BUILD (the command that
# builds release), CEILING (the ceiling binary); to override the defaults:
# RUNS, DURATION (seconds per run), WARMUP (seconds), CONNECTIONS,
# MEMORY_REQUESTS, CALLGRIND_WARMUP, CALLGRIND_REQUESTS, CALLGRIND_METHOD
# (dump or runs), SIGN_IN_NAME and SIGN_IN_PASSWORD (a demo user of
# --database memory:), SESSION_IDLE (12h).
set -euo pipefail

cd "$(dirname "$0")/.."

say() { printf 'bench: [%3ds] %s\n' "$SECONDS" "$*" >&2; }
die() { printf 'bench: error: %s\n' "$*" >&2; exit 1; }

quick=0
if [[ -n "${QUICK:-}" && "${QUICK:-}" != 0 ]]; then quick=1; fi
if ((quick)); then
    RUNS=${RUNS:-2} DURATION=${DURATION:-1} WARMUP=${WARMUP:-1} MEMORY_REQUESTS=${MEMORY_REQUESTS:-20000}
    CALLGRIND_WARMUP=${CALLGRIND_WARMUP:-20} CALLGRIND_REQUESTS=${CALLGRIND_REQUESTS:-100}
else
    RUNS=${RUNS:-5} DURATION=${DURATION:-3} WARMUP=${WARMUP:-10} MEMORY_REQUESTS=${MEMORY_REQUESTS:-200000}
    CALLGRIND_WARMUP=${CALLGRIND_WARMUP:-200} CALLGRIND_REQUESTS=${CALLGRIND_REQUESTS:-1000}
fi
readonly RUNS DURATION WARMUP MEMORY_REQUESTS CALLGRIND_WARMUP CALLGRIND_REQUESTS
readonly CONNECTIONS=${CONNECTIONS:-64}
readonly CALLGRIND_METHOD=${CALLGRIND_METHOD:-dump}
readonly MAKE=${MAKE:-make}
readonly SWIFT=${SWIFT:-swift}
readonly RELEASE_BUILD=${RELEASE_BUILD:-$SWIFT build -c release --static-swift-stdlib}
readonly OUT=.build/bench
readonly CEILING=${CEILING:-$OUT/ceiling}
readonly SIGN_IN_NAME=${SIGN_IN_NAME:-alex} SIGN_IN_PASSWORD=${SIGN_IN_PASSWORD:-alex-demo-1}
readonly SESSION_IDLE=${SESSION_IDLE:-12h}

readonly ROUTES=(
    /feed
    "/feed?sections=balances,alerts,credit-score,recent-activity,checkup"
    /api/feed/sections
    /feed/sections/balances
    /styles.css
)
readonly INSTRUCTIONS_ROUTE=/feed

# --- processes: every one started is recorded, and stopped on exit -----------

RUN_DIR=$(mktemp -d -t sectional-bench.XXXXXX)
readonly RUN_DIR
mkdir -p "$RUN_DIR/pids"

track() { : >"$RUN_DIR/pids/$1"; }
untrack() { rm -f "$RUN_DIR/pids/$1"; }

# Whether a process runs (exists and is not a zombie waiting to be reaped).
running() {
    local stat
    stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
    [[ "${stat##*) }" != Z* ]]
}

# Stops one process: SIGTERM, then SIGKILL after a grace period (seconds).
stop_process() {
    local pid=$1 grace=${2:-10} waited=0
    if running "$pid"; then
        kill -TERM "$pid" 2>/dev/null || true
        while running "$pid" && ((waited < grace * 10)); do
            sleep 0.1
            waited=$((waited + 1))
        done
        kill -KILL "$pid" 2>/dev/null || true
    fi
    wait "$pid" 2>/dev/null || true
    untrack "$pid"
}

cleanup() {
    local file
    for file in "$RUN_DIR"/pids/*; do
        [[ -e "$file" ]] && stop_process "${file##*/}" 5
    done
    rm -rf "$RUN_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Starts a command in the background with its standard error in a log file,
# and waits until it says "listening on http://127.0.0.1:PORT". Sets
# `started_pid` and `started_port`.
start_server() {
    local log=$1 timeout=$2
    shift 2
    : >"$log"
    "$@" </dev/null >/dev/null 2>"$log" &
    started_pid=$!
    track "$started_pid"
    local tries=0
    started_port=
    while ((tries < timeout * 10)); do
        started_port=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\).*|\1|p' "$log" | head -n 1)
        [[ -n "$started_port" ]] && return 0
        running "$started_pid" || break
        sleep 0.1
        tries=$((tries + 1))
    done
    cat "$log" >&2
    die "$* did not start (log above)"
}

# --- tools and builds --------------------------------------------------------

install_missing() {
    local missing=() tool
    for tool in wrk valgrind curl; do
        command -v "$tool" >/dev/null || missing+=("$tool")
    done
    ((${#missing[@]} == 0)) && return 0
    if [[ "$(id -u)" != 0 ]]; then
        die "missing ${missing[*]}. Run: sudo apt-get install -y ${missing[*]}"
    fi
    say "installing ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

install_missing
say "building feed-server (release) and the ceiling"
$MAKE --no-print-directory release bench-ceiling >&2
FEED_SERVER="$($RELEASE_BUILD --show-bin-path)/feed-server"
readonly FEED_SERVER
[[ -x "$FEED_SERVER" ]] || die "no feed-server at $FEED_SERVER"
[[ -x "$CEILING" ]] || die "no ceiling at $CEILING"
mkdir -p "$OUT/responses" "$OUT/logs"

# --- small helpers -----------------------------------------------------------

# The median of numbers, one per argument.
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print 0 } else if (NR % 2) { print v[(NR + 1) / 2] }
        else { printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 } }'
}

# A field of report.lua's line: wrk_field LINE NAME.
wrk_field() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }
# Context switches so far, over the process's current threads.
context_switches() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/ctxt_switches:/ { n += $2 } END { print n + 0 }'; }

# The Cookie field each port's requests carry (sign_in sets it): port -> value.
declare -A cookie_for

# Signs in on a feed-server (POST /signin) and sets the port's cookie_for.
# A session lives in the server that made it: each server needs its own.
sign_in() {
    local port=$1 answer status cookie
    answer=$(curl -s --max-time 300 -o /dev/null -D - -w '%{http_code}' \
        --data-urlencode "name=$SIGN_IN_NAME" --data-urlencode "password=$SIGN_IN_PASSWORD" \
        "http://127.0.0.1:$port/signin") || die "could not sign in on port $port"
    status=${answer##*$'\n'}
    cookie=$(printf '%s\n' "$answer" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: *\(sectional_session=[0-9a-f]\{64\}\);.*/\1/p' | head -n 1)
    [[ "$status" == 303 && -n "$cookie" ]] || die "signing in as $SIGN_IN_NAME on port $port answered $status without a session cookie"
    cookie_for[$port]=$cookie
}

# Runs wrk against a port, with that port's cookie, and prints report.lua's line.
# run_wrk PORT DURATION SCRIPT TARGET [TARGETS for mixed.lua...]
run_wrk() {
    local port=$1 duration=$2 script=$3 target=$4
    shift 4
    local line
    line=$(wrk -t1 -c"$CONNECTIONS" -d"${duration}s" -s "Benchmarks/$script" ${cookie_for[$port]:+-H "Cookie: ${cookie_for[$port]}"} \
        "http://127.0.0.1:$port$target" ${1+--} "$@" | grep '^WRK ') || die "wrk failed on port $port"
    printf '%s\n' "$line"
}

# Stops the run unless wrk's answers average at least 90% of BYTES, the size
# of the signed-in answer (headers and body): wrk counts a 303 to /signin or
# a 401 as a success, and those are much smaller than any page measured here.
# check_answer_size LINE BYTES WHAT
check_answer_size() {
    local line=$1 expected=$2 what=$3 requests bytes
    requests=$(wrk_field "$line" requests) bytes=$(wrk_field "$line" bytes)
    awk -v n="$requests" -v b="$bytes" -v e="$expected" 'BEGIN { exit !(n > 0 && b / n >= 0.9 * e) }' ||
        die "$what: $requests answers averaged $(awk -v n="$requests" -v b="$bytes" 'BEGIN { printf "%.0f", (n > 0 ? b / n : 0) }') bytes, not the $expected of the signed-in answer (signed out: 303 or 401?)"
}

# The number of wrk errors (connect, read, write, non-2xx/3xx status, timeout) in a line.
wrk_errors() {
    local line=$1 total=0 kind
    for kind in connect read write status timeout; do
        total=$((total + $(wrk_field "$line" "errors_$kind")))
    done
    echo "$total"
}

# A curl config that requests a target N times over one connection, with
# the port's cookie.
curl_config() {
    local port=$1 target=$2 count=$3 file=$4 i
    : >"$file"
    if [[ -n "${cookie_for[$port]:-}" ]]; then printf 'header = "Cookie: %s"\n' "${cookie_for[$port]}" >>"$file"; fi
    for ((i = 0; i < count; i++)); do
        printf 'url = "http://127.0.0.1:%s%s"\noutput = /dev/null\n' "$port" "$target" >>"$file"
    done
}

# Sends a target N times over one keep-alive connection; fails unless every
# answer is 200 and only one connection was opened.
send_requests() {
    local port=$1 target=$2 count=$3 config="$RUN_DIR/curl.$1.$3"
    curl_config "$port" "$target" "$count" "$config"
    local report
    report=$(curl -s -K "$config" -w '%{http_code} %{num_connects}\n') || die "curl failed on port $port"
    local bad connects
    bad=$(printf '%s\n' "$report" | awk '$1 != 200' | wc -l)
    connects=$(printf '%s\n' "$report" | awk '{ n += $2 } END { print n }')
    ((bad == 0)) || die "$bad of $count answers to $target were not 200"
    ((connects == 1)) || say "warning: $count requests to $target used $connects connections"
}

# --- 1. servers and their responses ------------------------------------------

threads=$(getconf _NPROCESSORS_ONLN)
say "starting feed-server ($threads threads, the default) and fetching its responses"
start_server "$OUT/logs/feed-server.log" 30 "$FEED_SERVER" --quiet --port 0 --database memory: --session-idle "$SESSION_IDLE" --drain 0s
feed_pid=$started_pid feed_port=$started_port
sign_in "$feed_port"

ceiling_args=()
route_bytes=()
# Headers and body: what wrk reads per answer (chunked framing aside).
route_sizes=()
for i in "${!ROUTES[@]}"; do
    route=${ROUTES[$i]}
    status=$(curl -s -o "$OUT/responses/$i.body" -D "$OUT/responses/$i.headers" -w '%{http_code}' \
        -H "Cookie: ${cookie_for[$feed_port]}" "http://127.0.0.1:$feed_port$route")
    [[ "$status" == 200 ]] || die "feed-server answered $route with $status"
    ceiling_args+=(--route "$route" "$OUT/responses/$i.body" "$OUT/responses/$i.headers")
    route_bytes+=("$(wc -c <"$OUT/responses/$i.body")")
    route_sizes+=("$(cat "$OUT/responses/$i.headers" "$OUT/responses/$i.body" | wc -c)")
done
# mixed.lua sends the routes in turn: its answers average the routes' sizes.
mixed_size=$(printf '%s\n' "${route_sizes[@]}" | awk '{ n += $1 } END { printf "%.0f", n / NR }')

start_server "$OUT/logs/ceiling.log" 10 "$CEILING" --port 0 --threads "$threads" "${ceiling_args[@]}"
ceiling_pid=$started_pid ceiling_port=$started_port
# The ceiling is sent the same requests, cookie included.
cookie_for[$ceiling_port]=${cookie_for[$feed_port]}
say "feed-server on port $feed_port (signed in as $SIGN_IN_NAME), ceiling on port $ceiling_port"

# Same bodies, and keep-alive on both (the second request reuses the connection).
for i in "${!ROUTES[@]}"; do
    route=${ROUTES[$i]}
    curl -s "http://127.0.0.1:$ceiling_port$route" | cmp -s - "$OUT/responses/$i.body" ||
        die "the ceiling's answer to $route differs from feed-server's"
    for port in "$feed_port" "$ceiling_port"; do
        connects=$(curl -s -o /dev/null -o /dev/null -w '%{num_connects}\n' -H "Cookie: ${cookie_for[$port]}" \
            "http://127.0.0.1:$port$route" "http://127.0.0.1:$port$route" | awk '{ n += $1 } END { print n }')
        ((connects == 1)) || die "port $port closed the connection after answering $route"
    done
done

# --- 2. warm-up and memory ---------------------------------------------------

say "warming up: ${WARMUP}s per server over all routes"
for port in "$feed_port" "$ceiling_port"; do
    run_wrk "$port" "$WARMUP" mixed.lua / "${ROUTES[@]}" >/dev/null
done
feed_rss_warm=$(rss_kb "$feed_pid")
ceiling_rss_warm=$(rss_kb "$ceiling_pid")
feed_switches=$(context_switches "$feed_pid")
ceiling_switches=$(context_switches "$ceiling_pid")

# Sends at least MEMORY_REQUESTS requests over all routes, in runs of up to
# 10 s, and after each run appends "REQUESTS_SO_FAR RSS_KB" to a file.
# Prints the number sent. load_requests PORT PID SAMPLES_FILE
load_requests() {
    local port=$1 pid=$2 samples=$3 sent=0 duration=1 line requests errors
    echo "0 $(rss_kb "$pid")" >"$samples"
    while ((sent < MEMORY_REQUESTS)); do
        line=$(run_wrk "$port" "$duration" mixed.lua / "${ROUTES[@]}")
        requests=$(wrk_field "$line" requests)
        errors=$(wrk_errors "$line")
        ((errors == 0)) || say "warning: $errors errors during the memory run on port $port"
        check_answer_size "$line" "$mixed_size" "the memory run on port $port"
        sent=$((sent + requests))
        echo "$sent $(rss_kb "$pid")" >>"$samples"
        # Long enough for the rest at this run's rate, at most 10 s.
        duration=$(awk -v left=$((MEMORY_REQUESTS - sent)) -v n="$requests" -v d="$duration" \
            'BEGIN { r = n / d; s = r > 0 ? int(left / r + 0.999) : 10; print (s < 1 ? 1 : (s > 10 ? 10 : s)) }')
    done
    echo "$sent"
}

say "memory: $MEMORY_REQUESTS requests to each server"
feed_memory_requests=$(load_requests "$feed_port" "$feed_pid" "$RUN_DIR/rss.feed")
feed_rss_after=$(rss_kb "$feed_pid")
feed_switches=$(($(context_switches "$feed_pid") - feed_switches))
ceiling_memory_requests=$(load_requests "$ceiling_port" "$ceiling_pid" "$RUN_DIR/rss.ceiling")
ceiling_rss_after=$(rss_kb "$ceiling_pid")
ceiling_switches=$(($(context_switches "$ceiling_pid") - ceiling_switches))

# --- 3. throughput -----------------------------------------------------------

say "throughput: ${#ROUTES[@]} routes x $RUNS runs x ${DURATION}s per server, wrk -t1 -c$CONNECTIONS"
declare -A rps p50 p99 errors
for i in "${!ROUTES[@]}"; do
    route=${ROUTES[$i]}
    for ((run = 1; run <= RUNS; run++)); do
        # ABBA: feed-server first on runs 1, 4, 5, 8, ...; the ceiling first otherwise.
        if (((run % 4) < 2)); then order="feed ceiling"; else order="ceiling feed"; fi
        for server in $order; do
            if [[ $server == feed ]]; then port=$feed_port; else port=$ceiling_port; fi
            line=$(run_wrk "$port" "$DURATION" report.lua "$route")
            check_answer_size "$line" "${route_sizes[$i]}" "$route on port $port"
            requests=$(wrk_field "$line" requests)
            duration_us=$(wrk_field "$line" duration_us)
            rps[$server,$i]+="$(awk -v n="$requests" -v d="$duration_us" 'BEGIN { printf "%.0f", n / (d / 1e6) }') "
            p50[$server,$i]+="$(wrk_field "$line" p50_us) "
            p99[$server,$i]+="$(wrk_field "$line" p99_us) "
            errors[$server,$i]=$((${errors[$server,$i]:-0} + $(wrk_errors "$line")))
        done
    done
    # shellcheck disable=SC2086 # word splitting wanted: one number per run
    say "  $route: feed-server $(median ${rps[feed,$i]}) req/s, ceiling $(median ${rps[ceiling,$i]}) req/s"
done

feed_hwm=$(hwm_kb "$feed_pid")
stop_process "$feed_pid"
stop_process "$ceiling_pid"

# --- 3b. /feed on SQLite, as a ratio to the same page from memory ------------

# The routes above measure the renderer on the seed data in memory; here the
# same page reads a SQLite database (a fresh file, seeded at start), each run
# alternating with a server on memory, in the same conditions.
say "SQLite: /feed from a SQLite file vs from memory, $RUNS runs x ${DURATION}s each"
rm -rf "$OUT/sqlite"
start_server "$OUT/logs/feed-server-sqlite.log" 30 "$FEED_SERVER" --quiet --port 0 --drain 0s --database "sqlite:$OUT/sqlite/bench.sqlite" \
    --session-idle "$SESSION_IDLE"
sqlite_pid=$started_pid sqlite_port=$started_port
start_server "$OUT/logs/feed-server-memory.log" 30 "$FEED_SERVER" --quiet --port 0 --database memory: --session-idle "$SESSION_IDLE" --drain 0s
memory_pid=$started_pid memory_port=$started_port
# Each server signs in its own session; the size of its signed-in /feed checks wrk's answers.
declare -A feed_size
for port in "$sqlite_port" "$memory_port"; do
    sign_in "$port"
    status=$(curl -s -o "$RUN_DIR/feed.$port.body" -D "$RUN_DIR/feed.$port.headers" -w '%{http_code}' \
        -H "Cookie: ${cookie_for[$port]}" "http://127.0.0.1:$port/feed")
    [[ "$status" == 200 ]] || die "feed-server on port $port answered /feed with $status"
    feed_size[$port]=$(cat "$RUN_DIR/feed.$port.headers" "$RUN_DIR/feed.$port.body" | wc -c)
done
run_wrk "$sqlite_port" "$WARMUP" report.lua /feed >/dev/null
run_wrk "$memory_port" "$WARMUP" report.lua /feed >/dev/null
sqlite_rps='' memory_rps=''
for ((run = 1; run <= RUNS; run++)); do
    if (((run % 4) < 2)); then order="sqlite memory"; else order="memory sqlite"; fi
    for store in $order; do
        if [[ $store == sqlite ]]; then port=$sqlite_port; else port=$memory_port; fi
        line=$(run_wrk "$port" "$DURATION" report.lua /feed)
        check_answer_size "$line" "${feed_size[$port]}" "/feed ($store) on port $port"
        rate=$(awk -v n="$(wrk_field "$line" requests)" -v d="$(wrk_field "$line" duration_us)" 'BEGIN { printf "%.0f", n / (d / 1e6) }')
        if [[ $store == sqlite ]]; then sqlite_rps+="$rate "; else memory_rps+="$rate "; fi
    done
done
# shellcheck disable=SC2086 # word splitting wanted: one number per run
sqlite_median=$(median $sqlite_rps) memory_median=$(median $memory_rps)
say "  /feed: SQLite $sqlite_median req/s, memory $memory_median req/s"
stop_process "$sqlite_pid"
stop_process "$memory_pid"

# --- 4. instructions per request ---------------------------------------------

# Total instructions (Ir) in a callgrind output file.
callgrind_total() { sed -n 's/^\(summary\|totals\): *\([0-9]*\).*/\2/p' "$1" | head -n 1; }

# Instructions spent in memset (self cost) in a callgrind output file. Most
# are libmicrohttpd zeroing each connection's memory pool between requests:
# glibc does it with `rep stosb`, which callgrind counts once per byte.
callgrind_memset() {
    callgrind_annotate --inclusive=no --threshold=100 "$1" 2>/dev/null |
        awk '/^ *[0-9,]+ .*:__?memset/ { count = $1; gsub(",", "", count); sum += count } END { printf "%.0f\n", sum }'
}

# Waits until a file exists and is complete (callgrind writes "totals:" last).
wait_for_dump() {
    local file=$1 tries=0
    while ((tries < 300)); do
        [[ -f "$file" ]] && grep -q '^totals:' "$file" && return 0
        sleep 0.1
        tries=$((tries + 1))
    done
    return 1
}

# Instructions per request of INSTRUCTIONS_ROUTE for one server, run with one
# thread under callgrind. Prints "METHOD INSTRUCTIONS MEMSET_INSTRUCTIONS". Keeps the measured profile as
# OUT/callgrind.LABEL.out. COOKIE is the Cookie field to send, or "sign-in":
# sign in on each server started (before the warm-up, so outside the counts).
# count_instructions LABEL COOKIE COMMAND...
count_instructions() {
    local label=$1 cookie=$2
    shift 2
    local out="$RUN_DIR/callgrind.$label" log="$OUT/logs/callgrind.$label.log"
    local measured=$((CALLGRIND_WARMUP + CALLGRIND_REQUESTS))
    local valgrind=(valgrind -q --tool=callgrind --callgrind-out-file="$out")
    # Swift seeds its hashing at random per process: fix it for repeatable counts.
    export SWIFT_DETERMINISTIC_HASHING=1

    if [[ $CALLGRIND_METHOD == dump ]]; then
        start_server "$log" 60 "${valgrind[@]}" "$@"
        local pid=$started_pid port=$started_port
        if [[ $cookie == sign-in ]]; then sign_in "$port"; else cookie_for[$port]=$cookie; fi
        send_requests "$port" "$INSTRUCTIONS_ROUTE" "$CALLGRIND_WARMUP"
        if timeout 30 callgrind_control --dump "$pid" >/dev/null 2>&1 && wait_for_dump "$out.1"; then
            send_requests "$port" "$INSTRUCTIONS_ROUTE" "$CALLGRIND_REQUESTS"
            if timeout 30 callgrind_control --dump "$pid" >/dev/null 2>&1 && wait_for_dump "$out.2"; then
                stop_process "$pid" 5
                cp "$out.2" "$OUT/callgrind.$label.out"
                echo "dump $(($(callgrind_total "$out.2") / CALLGRIND_REQUESTS))" \
                    "$(($(callgrind_memset "$out.2") / CALLGRIND_REQUESTS))"
                return 0
            fi
        fi
        say "callgrind_control could not dump $label (ptrace not allowed?): comparing two runs instead"
        stop_process "$pid" 5
    fi

    # Two runs, CALLGRIND_WARMUP and CALLGRIND_WARMUP + CALLGRIND_REQUESTS
    # requests: the difference is the measured requests, startup cancels out.
    local count totals=() memsets=()
    for count in "$CALLGRIND_WARMUP" "$measured"; do
        rm -f "$out"
        start_server "$log" 60 "${valgrind[@]}" "$@"
        if [[ $cookie == sign-in ]]; then sign_in "$started_port"; else cookie_for[$started_port]=$cookie; fi
        send_requests "$started_port" "$INSTRUCTIONS_ROUTE" "$count"
        stop_process "$started_pid" 60
        wait_for_dump "$out" || die "callgrind wrote no counts for $label"
        totals+=("$(callgrind_total "$out")")
        memsets+=("$(callgrind_memset "$out")")
    done
    cp "$out" "$OUT/callgrind.$label.out"
    echo "runs $(((totals[1] - totals[0]) / CALLGRIND_REQUESTS)) $(((memsets[1] - memsets[0]) / CALLGRIND_REQUESTS))"
}

say "instructions per $INSTRUCTIONS_ROUTE request (callgrind, one thread, $CALLGRIND_REQUESTS requests after $CALLGRIND_WARMUP)"
result=$(count_instructions feed-server sign-in "$FEED_SERVER" --quiet --threads 1 --port 0 --database memory: --session-idle "$SESSION_IDLE" --drain 0s)
read -r feed_ir_method feed_ir feed_memset <<<"$result"
# The ceiling ignores the cookie but reads it, as feed-server does: the same requests.
result=$(count_instructions ceiling "${cookie_for[$feed_port]}" "$CEILING" --port 0 --threads 1 "${ceiling_args[@]}")
read -r ceiling_ir_method ceiling_ir ceiling_memset <<<"$result"

# The functions feed-server spends most instructions in (self cost), per request.
profile="$OUT/profile.feed-server.txt"
demangle() { if $SWIFT demangle --help >/dev/null 2>&1; then $SWIFT demangle --simplified; else cat; fi; }
callgrind_annotate --inclusive=no --threshold=100 "$OUT/callgrind.feed-server.out" 2>/dev/null |
    demangle | awk -v n="$CALLGRIND_REQUESTS" '
        /^-+$/ { rule++; next }
        # The function table follows the sixth rule: "Ir (percent) file:function [object]".
        rule == 6 && /^ *[0-9,]+ / {
            count = $1; gsub(",", "", count)
            line = $0
            sub(/^ *[0-9,]+ +\( *[0-9.]+%\) +/, "", line); sub(/ \[[^]]*\]$/, "", line)
            colon = index(line, ":"); file = substr(line, 1, colon - 1); function_name = substr(line, colon + 1)
            sub(/.*\//, "", file)
            # Thread entry points show the cost of calls that started before the dump.
            if (function_name ~ /^(clone|start_thread)$/) next
            if (file == "???" || file ~ /^</) file = ""
            printf "%9.0f  %s%s\n", count / n, function_name, file == "" ? "" : "  (" file ")"
            if (++shown == 40) exit
        }' >"$profile" || true

# --- 5. results --------------------------------------------------------------

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f", a / b; else print 0 }'; }
json_list() { local IFS=,; echo "[$*]"; }
json_string() { printf '"%s"' "$(printf '%s' "$1" | sed 's/\\/\\\\/g; s/"/\\"/g')"; }
verdict() { if awk -v v="$1" -v op="$2" -v t="$3" 'BEGIN { exit !(op == ">=" ? v >= t : v < t) }'; then echo ok; else echo missed; fi; }

# [[requests, rss_kb], ...] from a samples file.
rss_samples_json() { awk '{ printf "%s[%s, %s]", (NR > 1 ? ", " : "["), $1, $2 } END { print "]" }' "$1"; }

feed_growth=$((feed_rss_after - feed_rss_warm))
ceiling_growth=$((ceiling_rss_after - ceiling_rss_warm))

routes_joined=
table_rows=()
feed_ratio=0 styles_ratio=0
for i in "${!ROUTES[@]}"; do
    route=${ROUTES[$i]}
    # shellcheck disable=SC2086 # word splitting wanted: one number per run
    {
        fr=$(median ${rps[feed,$i]}) cr=$(median ${rps[ceiling,$i]})
        f50=$(median ${p50[feed,$i]}) f99=$(median ${p99[feed,$i]})
        c50=$(median ${p50[ceiling,$i]}) c99=$(median ${p99[ceiling,$i]})
        fruns=$(json_list ${rps[feed,$i]}) cruns=$(json_list ${rps[ceiling,$i]})
    }
    r=$(ratio "$fr" "$cr")
    [[ $route == /feed ]] && feed_ratio=$r
    [[ $route == /styles.css ]] && styles_ratio=$r
    routes_joined+="${routes_joined:+,
    }{\"route\": $(json_string "$route"), \"body_bytes\": ${route_bytes[$i]}, \"ratio\": $r,
      \"feed_server\": {\"rps_median\": $fr, \"rps_runs\": $fruns, \"p50_us\": $f50, \"p99_us\": $f99, \"errors\": ${errors[feed,$i]}},
      \"ceiling\": {\"rps_median\": $cr, \"rps_runs\": $cruns, \"p50_us\": $c50, \"p99_us\": $c99, \"errors\": ${errors[ceiling,$i]}}}"
    table_rows+=("$(printf '%-68s %9.0f %9.0f %6.2f %8.2f %8.2f %8.2f %8.2f' "$route" "$fr" "$cr" "$r" \
        "$(awk -v v="$f50" 'BEGIN { print v / 1000 }')" "$(awk -v v="$f99" 'BEGIN { print v / 1000 }')" \
        "$(awk -v v="$c50" 'BEGIN { print v / 1000 }')" "$(awk -v v="$c99" 'BEGIN { print v / 1000 }')")")
    if ((${errors[feed,$i]} + ${errors[ceiling,$i]} > 0)); then
        say "warning: $route had errors (feed-server ${errors[feed,$i]}, ceiling ${errors[ceiling,$i]})"
    fi
done

budget_feed=$(verdict "$feed_ratio" ">=" 0.8)
budget_styles=$(verdict "$styles_ratio" ">=" 0.9)
budget_rss=$(verdict "$feed_rss_after" "<" 40960)
budget_growth=$(verdict "$feed_growth" "<" 2048)

commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
dirty=false
[[ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]] && dirty=true
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)

cat >"$OUT/results.json" <<EOF
{
  "date": "$(date -u +%Y-%m-%dT%H:%M:%SZ)",
  "commit": "$commit",
  "uncommitted_changes": $dirty,
  "quick": $([[ $quick == 1 ]] && echo true || echo false),
  "machine": {"cores": $threads, "cpu": $(json_string "$cpu"), "kernel": $(json_string "$(uname -r)"),
              "libmicrohttpd": $(json_string "$(pkg-config --modversion libmicrohttpd)"),
              "note": "loopback; load generator on the same machine"},
  "load": {"tool": "wrk", "threads": 1, "connections": $CONNECTIONS, "duration_s": $DURATION, "runs": $RUNS,
           "server_threads": $threads},
  "routes": [
    $routes_joined
  ],
  "instructions_per_request": {"route": $(json_string "$INSTRUCTIONS_ROUTE"), "server_threads": 1,
    "warmup_requests": $CALLGRIND_WARMUP, "measured_requests": $CALLGRIND_REQUESTS,
    "method": "$feed_ir_method", "feed_server": $feed_ir, "ceiling": $ceiling_ir,
    "ratio": $(ratio "$feed_ir" "$ceiling_ir"),
    "memset_feed_server": $feed_memset, "memset_ceiling": $ceiling_memset,
    "memset_note": "mostly libmicrohttpd zeroing the connection memory pool; rep stosb, counted per byte by callgrind"},
  "context_switches_per_request": {"feed_server": $(ratio "$feed_switches" "$feed_memory_requests"),
    "ceiling": $(ratio "$ceiling_switches" "$ceiling_memory_requests"),
    "note": "during the memory run, summed over the threads alive at its end"},
  "memory_kb": {
    "feed_server": {"rss_after_warmup": $feed_rss_warm, "rss_after_requests": $feed_rss_after,
                    "growth": $feed_growth, "requests": $feed_memory_requests, "peak_rss_at_end": $feed_hwm,
                    "rss_by_requests": $(rss_samples_json "$RUN_DIR/rss.feed")},
    "ceiling": {"rss_after_warmup": $ceiling_rss_warm, "rss_after_requests": $ceiling_rss_after,
                "growth": $ceiling_growth, "requests": $ceiling_memory_requests,
                "rss_by_requests": $(rss_samples_json "$RUN_DIR/rss.ceiling")}
  },
  "feed_on_sqlite": {"rps_median": $sqlite_median, "rps_runs": $(json_list $sqlite_rps),
    "memory_rps_median": $memory_median, "memory_rps_runs": $(json_list $memory_rps),
    "ratio": $(ratio "$sqlite_median" "$memory_median")},
  "budgets": {"feed_ratio_at_least_0.8": "$budget_feed", "styles_ratio_at_least_0.9": "$budget_styles",
              "rss_under_40_mb": "$budget_rss", "growth_under_2_mb": "$budget_growth"}
}
EOF

# Valid JSON or a loud failure (python3 only checks it when present).
if command -v python3 >/dev/null; then
    python3 -m json.tool "$OUT/results.json" >/dev/null || die "$OUT/results.json is not valid JSON"
fi

# --- 6. live sections: memory per idle stream, fan-out of one change to 1,000 --

say "live sections: 1,000 open streams, then one committed change"
live_line=$(python3 scripts/live-bench.py --binary "$FEED_SERVER" --public Public) || die "live-bench failed: $live_line"

mb() { awk -v k="$1" 'BEGIN { printf "%.1f MB", k / 1024 }'; }
{
    echo
    echo "Sectional benchmark: $threads cores ($cpu), loopback, wrk -t1 -c$CONNECTIONS on the same machine"
    echo "commit $commit$([[ $dirty == true ]] && echo ' (with uncommitted changes)'), $RUNS runs x ${DURATION}s per route and server, medians$([[ $quick == 1 ]] && echo ', QUICK')"
    echo
    printf '%-68s %9s %9s %6s %8s %8s %8s %8s\n' route "req/s" "ceiling" ratio "p50 ms" "p99 ms" "c p50" "c p99"
    printf '%s\n' "${table_rows[@]}"
    echo
    printf '/feed from SQLite: %s req/s, from memory %s req/s (%sx), same run\n' \
        "$sqlite_median" "$memory_median" "$(ratio "$sqlite_median" "$memory_median")"
    printf 'instructions per %s request (callgrind, 1 thread): feed-server %s, ceiling %s (%sx)\n' \
        "$INSTRUCTIONS_ROUTE" "$feed_ir" "$ceiling_ir" "$(awk -v a="$feed_ir" -v b="$ceiling_ir" 'BEGIN { printf "%.1f", a / b }')"
    printf '  of which memset (libmicrohttpd zeroing its connection pool, rep stosb counted per byte): %s and %s\n' \
        "$feed_memset" "$ceiling_memset"
    printf 'feed-server memory: %s after warm-up, %s after %s requests (growth %s kB); ceiling %s -> %s\n' \
        "$(mb "$feed_rss_warm")" "$(mb "$feed_rss_after")" "$feed_memory_requests" "$feed_growth" \
        "$(mb "$ceiling_rss_warm")" "$(mb "$ceiling_rss_after")"
    printf '  feed-server RSS by requests sent: %s\n' \
        "$(awk '{ printf "%s%dk %.1f MB", (NR > 1 ? ", " : ""), $1 / 1000, $2 / 1024 }' "$RUN_DIR/rss.feed")"
    printf 'context switches per request (memory run): feed-server %s, ceiling %s\n' \
        "$(ratio "$feed_switches" "$feed_memory_requests")" "$(ratio "$ceiling_switches" "$ceiling_memory_requests")"
    printf 'budgets: /feed >= 0.8 of ceiling: %s; /styles.css >= 0.9: %s; RSS < 40 MB: %s; growth < 2 MB: %s\n' \
        "$budget_feed" "$budget_styles" "$budget_rss" "$budget_growth"
    if [[ -s "$profile" ]]; then
        echo
        if [[ $feed_ir_method == dump ]]; then
            echo "feed-server, instructions per $INSTRUCTIONS_ROUTE request by function (self cost; all in $profile):"
        else
            echo "feed-server by function, whole run (startup included) / $CALLGRIND_REQUESTS (all in $profile):"
        fi
        head -n 12 "$profile"
    fi
    echo
    echo "$live_line (in $OUT/live.json)"
    echo "results: $OUT/results.json; callgrind profiles: $OUT/callgrind.*.out (callgrind_annotate)"
}
