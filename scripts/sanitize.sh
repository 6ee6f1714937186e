#!/usr/bin/env bash
# `make sanitize`: the whole test suite under ThreadSanitizer, then under
# AddressSanitizer (which includes LeakSanitizer on Linux), each in its own
# build directory so the two never share objects with each other or with
# the ordinary debug build.
#
# Suppressions: Sanitizers/tsan.supp and Sanitizers/lsan.supp, every entry
# with its reason. None for AddressSanitizer's memory errors.
#
# Environment: SWIFT, SANITIZERS (default "thread address"), SANITIZE_FILTER
# (passed to `swift test --filter`, for a quick run of some suites).
set -euo pipefail
cd "$(dirname "$0")/.."

readonly SWIFT=${SWIFT:-swift}
readonly SANITIZERS=(${SANITIZERS:-thread address})
say() { printf 'sanitize: [%3ds] %s\n' "$SECONDS" "$*" >&2; }

# Swift's crash backtracer reads raw stack memory, which ASan reports as an
# error of its own; the sanitizers print their own stack traces.
export SWIFT_BACKTRACE=enable=no
export TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1 suppressions=$PWD/Sanitizers/tsan.supp ${TSAN_OPTIONS:-}"
export ASAN_OPTIONS="detect_leaks=1 halt_on_error=1 ${ASAN_OPTIONS:-}"
export LSAN_OPTIONS="suppressions=$PWD/Sanitizers/lsan.supp print_suppressions=1 ${LSAN_OPTIONS:-}"

# Is the Mutex false positive (Sanitizers/tsan.supp, entry 1) still there with this toolchain?
mutex_check="not run"
if [[ " ${SANITIZERS[*]} " == *" thread "* ]]; then
    mkdir -p .build/sanitize-mutex
    if "${SWIFT}c" -sanitize=thread -O -g Sanitizers/MutexFalsePositive.swift -o .build/sanitize-mutex/check >/dev/null 2>&1; then
        output=$(TSAN_OPTIONS=halt_on_error=0 .build/sanitize-mutex/check 2>&1 || true)
        if grep -q "total 80000 expected 80000" <<<"$output"; then
            if grep -q "WARNING: ThreadSanitizer" <<<"$output"; then
                mutex_check="still reported (counter exact): the suppression is needed"
            else
                mutex_check="no longer reported: remove entries 1 and 2 of Sanitizers/tsan.supp"
            fi
        else
            mutex_check="the counter was wrong: Mutex did not serialize (investigate)"
            failed_mutex=1
        fi
    else
        mutex_check="could not build Sanitizers/MutexFalsePositive.swift"
    fi
    say "Mutex false-positive check: $mutex_check"
fi

filter=()
[[ -n ${SANITIZE_FILTER:-} ]] && filter=(--filter "$SANITIZE_FILTER")
# DockerfileTests read the libraries the built binaries link, to check the
# image's runtime packages; a sanitizer's runtime adds its own (libresolv for
# ThreadSanitizer), which the image never ships. They say nothing about races
# or memory, and run in `make test`.
filter+=(--skip DockerfileTests)

declare -A RESULT
failed=${failed_mutex:-0}
for sanitizer in "${SANITIZERS[@]}"; do
    scratch=.build/sanitize-$sanitizer
    log=.build/sanitize-$sanitizer.log
    say "building and testing with --sanitize=$sanitizer (log: $log)"
    # Tests run one at a time: sanitized code is 3 to 10 times slower, and
    # the live tests' time limits were set for an ordinary build. The tests
    # on PostgreSQL get a throw-away one, as in `make test`.
    if bash scripts/with-postgres.sh "$SWIFT" test --sanitize="$sanitizer" --scratch-path "$scratch" --no-parallel "${filter[@]}" >"$log" 2>&1; then
        summary=$(grep -E "Test run with [0-9]+ tests? .* passed" "$log" | tail -n 1 | sed 's/^.*Test run/Test run/')
        RESULT[$sanitizer]="clean: ${summary:-passed}"
    else
        failed=1
        RESULT[$sanitizer]="FAILED (see $log)"
        grep -E -m 10 "WARNING: ThreadSanitizer|ERROR: AddressSanitizer|ERROR: LeakSanitizer|SUMMARY:|✘ Test run|: error:" "$log" >&2 || tail -n 30 "$log" >&2
    fi
    reports=$(grep -c -E "WARNING: ThreadSanitizer|ERROR: (Address|Leak)Sanitizer" "$log" || true)
    RESULT[$sanitizer]+=" | sanitizer reports: $reports"
    suppressed=$(grep -E -A 20 "ThreadSanitizer: Matched [0-9]+ suppressions|Suppressions used:" "$log" | grep -E "^ *[0-9]+ +[0-9]* *[^ ]" | grep -v -E "^ *[0-9]+ +(passed|failed)" | sort | uniq -c | awk '{$1=""; print}' | tr -s ' ' | paste -sd ';' - || true)
    [[ -n $suppressed ]] && RESULT[$sanitizer]+=" | suppressions used: $suppressed"
done

printf '\n%-10s %s\n' sanitizer result
[[ " ${SANITIZERS[*]} " == *" thread "* ]] && printf '%-10s %s\n' mutex "Mutex.withLock false positive: $mutex_check"
for sanitizer in "${SANITIZERS[@]}"; do printf '%-10s %s\n' "$sanitizer" "${RESULT[$sanitizer]}"; done
exit $failed
