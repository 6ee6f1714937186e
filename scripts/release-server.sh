# Sourced by scripts that load a release feed-server (abuse.sh, soak.sh),
# after they define say, die, OUT and RELEASE_BUILD. Builds the release
# binary into $binary, and stops every PID in $pids when the script exits.

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
