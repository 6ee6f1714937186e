#!/usr/bin/env bash
# `make fuzz`: libFuzzer harnesses (Fuzz/*/Harness.swift), each built with
# `swiftc -sanitize=fuzzer,address` straight from the module sources (no
# SwiftPM), run for FUZZ_SECONDS from its seed corpus (Fuzz/Corpus/NAME),
# then the strict HTML5 parser check over the HTML escaping corpus.
#
#  1. Compiles Sectional, HTTPServer, SectionalServer and FeedApp as modules (instrumented for
#     coverage and AddressSanitizer, `-enable-testing` so a harness may reach
#     internal API), then links each harness with what it imports.
#  2. Runs each harness for FUZZ_SECONDS (default 30) with its seeds copied to
#     .build/fuzz/corpus/NAME; the seeds in the repository are never changed.
#     A crash stops the run and leaves the input in .build/fuzz/artifacts/NAME/.
#  3. Replays the HTML escaping corpus with SECTIONAL_HTML_DUMP set and checks
#     every document with html5lib (scripts/checks/html_roundtrip.py).
#  4. Prints a table: harness, runs, corpus size, result.
#
# Environment: FUZZ_SECONDS (per harness), FUZZ_HARNESSES (names to run, default
# all), SWIFTC.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly SECONDS_PER_HARNESS=${FUZZ_SECONDS:-30}
readonly SWIFTC=${SWIFTC:-swiftc}
readonly OUT=.build/fuzz
readonly HARNESSES=(${FUZZ_HARNESSES:-CompositionPlan RequestPath HTMLEscaping StaticPath})
say() { printf 'fuzz: [%3ds] %s\n' "$SECONDS" "$*" >&2; }
die() { printf 'fuzz: error: %s\n' "$*" >&2; exit 1; }

python3 -c 'import html5lib' 2>/dev/null || {
    say "installing html5lib (PyPI)"
    python3 -m pip install --quiet html5lib || die "cannot install html5lib: python3 -m pip install html5lib"
}

mkdir -p "$OUT/modules"
# -O keeps runs fast; preconditions, overflow and bounds checks stay on in -O.
# The package's upcoming feature too, so the modules mean here what they mean in `swift build`.
FLAGS=(-sanitize=fuzzer,address -parse-as-library -swift-version 6 -enable-upcoming-feature NonisolatedNonsendingByDefault -package-name Sectional
       -O -g -enable-testing -use-ld=lld
       -I "$OUT/modules" -I Sources/CMicroHTTPD -I Sources/CSodium -I Sources/CSQLite -I Sources/CLibPQ)
# libmicrohttpd 1.0.1's header, where `make deps` installed it (Debian's 0.9.75 is in the default path).
for include in $(pkg-config --cflags-only-I libmicrohttpd); do FLAGS+=(-Xcc "$include"); done

# A module is rebuilt only when one of its sources is newer than its object.
build_module() {
    local name=$1; shift
    local object="$OUT/modules/$name.o" sources
    mapfile -t sources < <(find "Sources/$name" -name '*.swift' | sort)
    if [[ -f $object ]] && [[ -z $(find "Sources/$name" "$@" -newer "$object" -print -quit 2>/dev/null) ]]; then return; fi
    say "compiling module $name"
    "$SWIFTC" "${FLAGS[@]}" -module-name "$name" -wmo -emit-module -emit-module-path "$OUT/modules/$name.swiftmodule" \
        -c -o "$object" "${sources[@]}"
}
# In Package.swift's order; each rebuilt when its sources, its C module or a module it imports changed.
build_module Sectional
build_module HTTPServer Sources/CMicroHTTPD
build_module SectionalSQL
build_module SectionalServer "$OUT/modules/Sectional.o" "$OUT/modules/HTTPServer.o" "$OUT/modules/SectionalSQL.o"
build_module SectionalSecurity Sources/CSodium "$OUT/modules/HTTPServer.o" "$OUT/modules/SectionalServer.o"
build_module SectionalSQLite Sources/CSQLite "$OUT/modules/SectionalSQL.o"
build_module SectionalPostgres Sources/CLibPQ "$OUT/modules/SectionalSQL.o"
build_module SectionalAccounts "$OUT/modules/SectionalServer.o" "$OUT/modules/SectionalSecurity.o" "$OUT/modules/SectionalSQL.o"
build_module FeedApp "$OUT/modules/SectionalAccounts.o" "$OUT/modules/SectionalSQLite.o" "$OUT/modules/SectionalPostgres.o"

harness_modules() {
    case $1 in
        CompositionPlan|HTMLEscaping) echo Sectional HTTPServer ;;
        StaticPath) echo HTTPServer ;;
        RequestPath) echo Sectional HTTPServer SectionalServer SectionalSecurity SectionalSQL SectionalSQLite SectionalPostgres SectionalAccounts FeedApp ;;
        *) die "unknown harness $1" ;;
    esac
}

for name in "${HARNESSES[@]}"; do
    objects=()
    for module in $(harness_modules "$name"); do objects+=("$OUT/modules/$module.o"); done
    binary="$OUT/fuzz-$name"
    if [[ ! -x $binary ]] || [[ -n $(find "Fuzz/$name" Fuzz/Support "${objects[@]}" -newer "$binary" -print -quit) ]]; then
        say "linking harness $name"
        "$SWIFTC" "${FLAGS[@]}" -module-name "Fuzz$name" "Fuzz/$name/Harness.swift" Fuzz/Support/FuzzSupport.swift \
            "${objects[@]}" $(pkg-config --libs libmicrohttpd) -lsodium -lsqlite3 -o "$binary"
    fi
done

export SECTIONAL_PUBLIC=$PWD/Public
# Swift's own crash backtracer reads raw stack memory, which AddressSanitizer
# reports as a bug of its own: leave crash reports to the sanitizer.
export SWIFT_BACKTRACE=enable=no
declare -A RUNS CORPUS RESULT
failed=0
for name in "${HARNESSES[@]}"; do
    corpus="$OUT/corpus/$name" artifacts="$OUT/artifacts/$name/"
    mkdir -p "$corpus" "$artifacts"
    cp -n "Fuzz/Corpus/$name"/* "$corpus"/ 2>/dev/null || true
    log="$OUT/$name.log"
    say "running $name for ${SECONDS_PER_HARNESS}s"
    set +e
    extra=()
    # RequestPath answers on Swift's concurrency pool: the threads and task
    # allocator never balance mallocs and frees within one input, so libFuzzer
    # would run a full leak scan after nearly every input (90 % of the time,
    # measured). Leaks of the request path are checked by `make soak` instead
    # (LeakSanitizer over thousands of real requests).
    [[ $name == RequestPath ]] && extra+=(-detect_leaks=0)
    "$OUT/fuzz-$name" "$corpus" -max_total_time="$SECONDS_PER_HARNESS" -timeout=10 -rss_limit_mb=4096 \
        -max_len=4096 -dict="Fuzz/$name.dict" -artifact_prefix="$artifacts" -print_final_stats=1 "${extra[@]}" >"$log" 2>&1
    status=$?
    set -e
    RUNS[$name]=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    CORPUS[$name]=$(find "$corpus" -type f | wc -l)
    if ((status == 0)); then
        RESULT[$name]="ok"
    else
        RESULT[$name]="FAILED (exit $status, see $log)"
        failed=1
        grep -E -m 5 'Fatal error|ERROR: AddressSanitizer|ERROR: libFuzzer|Test unit written' "$log" >&2 || tail -n 20 "$log" >&2
    fi
done

# The strict parser check: every input of the escaping corpus, as a whole page, through html5lib.
if [[ " ${HARNESSES[*]} " == *" HTMLEscaping "* && ${RESULT[HTMLEscaping]} == ok ]]; then
    dump="$OUT/html-documents.jsonl"
    rm -f "$dump"
    say "replaying the HTMLEscaping corpus into $dump"
    SECTIONAL_HTML_DUMP=$dump "$OUT/fuzz-HTMLEscaping" "$OUT/corpus/HTMLEscaping" -runs=0 >"$OUT/html-dump.log" 2>&1 \
        || die "replaying the corpus failed (see $OUT/html-dump.log)"
    if html5=$(python3 scripts/check.py html-roundtrip "$dump"); then
        RESULT[html5lib]="ok: $html5"
    else
        RESULT[html5lib]="FAILED: $html5"
        failed=1
    fi
fi

printf '\n%-16s %12s %8s  %s\n' harness runs corpus result
for name in "${HARNESSES[@]}"; do
    printf '%-16s %12s %8s  %s\n' "$name" "${RUNS[$name]:-?}" "${CORPUS[$name]}" "${RESULT[$name]}"
done
[[ -n ${RESULT[html5lib]:-} ]] && printf '%-16s %12s %8s  %s\n' "html5lib check" "" "" "${RESULT[html5lib]}"
exit $failed
