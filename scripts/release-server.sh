# Sourced by scripts that load a release feed-server (abuse.sh, soak.sh),
# after they define say, die, OUT and RELEASE_BUILD. Builds the release
# binary into $binary, stops every PID in $pids when the script exits, and
# defines sign_in. Every page needs a signed-in user: signed out, a page is
# a 303 to /signin and the API a 401, so the load must carry a session.

scratch=()
[[ -n ${HOSTILE_SCRATCH:-} ]] && scratch=(--scratch-path "$HOSTILE_SCRATCH")
say "building feed-server (release)"
$RELEASE_BUILD "${scratch[@]}" >"$OUT/build.log" 2>&1 || { tail -n 20 "$OUT/build.log" >&2; die "release build failed"; }
binary="$($RELEASE_BUILD "${scratch[@]}" --show-bin-path)/feed-server"

pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
}
trap cleanup EXIT INT TERM

# A demo user of --database memory:, and how long a session may sit unused
# (give servers --session-idle "$SESSION_IDLE": the default 30 minutes could
# end a session in a long run's pauses).
readonly SIGN_IN_NAME=${SIGN_IN_NAME:-alex} SIGN_IN_PASSWORD=${SIGN_IN_PASSWORD:-alex-demo-1}
readonly SESSION_IDLE=${SESSION_IDLE:-12h}

# Signs in on the server at 127.0.0.1:PORT (POST /signin) and sets $cookie to
# the Cookie field its session needs (sectional_session=...). A session lives
# in the server that made it: each server started needs its own.
sign_in() {  # port
    local answer status
    # Long enough for the password hash under valgrind.
    answer=$(curl -s --max-time 300 -o /dev/null -D - -w '%{http_code}' \
        --data-urlencode "name=$SIGN_IN_NAME" --data-urlencode "password=$SIGN_IN_PASSWORD" \
        "http://127.0.0.1:$1/signin") || die "could not sign in on port $1"
    status=${answer##*$'\n'}
    cookie=$(printf '%s\n' "$answer" | tr -d '\r' | sed -n 's/^[Ss]et-[Cc]ookie: *\(sectional_session=[0-9a-f]\{64\}\);.*/\1/p' | head -n 1)
    [[ $status == 303 && -n $cookie ]] || die "signing in as $SIGN_IN_NAME on port $1 answered $status without a session cookie"
}
