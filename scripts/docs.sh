#!/usr/bin/env bash
# `make docs`: the API documentation of every library module (Sectional,
# SectionalServer, SectionalTesting, HTTPServer and the data modules), built
# with the toolchain's DocC into one static site.
#
#  1. `swift build --build-tests` (dump-symbol-graph needs every module of
#     the package built), then `swift package dump-symbol-graph` (SwiftPM's own command, no plugin)
#     writes the public symbols of every module to .build/<triple>/symbolgraph,
#     with extension blocks: without them DocC drops what a module adds to
#     another module's types (`router.addPage(_:in:)`, `Response.json`,
#     `ServerConfiguration.forTests()`).
#  2. For each of every module M: `docc convert Sources/M/M.docc` with a
#     folder holding only M's graphs (M.symbols.json, and M@*.symbols.json
#     for its extensions of other modules) into .build/docs/M.doccarchive,
#     for static hosting, every warning an error.
#  3. `docc merge` combines the archives into one site in
#     .build/docs/site, with a landing page that lists every module
#     (/documentation/) and an index.html at the root that leads there.
#  4. scripts/doc-coverage.py: every public symbol of every module has
#     a summary line.
#  5. Prints where the site is and how to look at it.
#
# Any DocC warning, or any public symbol without a summary, fails the run.
#
# Environment: SWIFT (default swift); DOCC (default: docc on the PATH, else
# the one next to swift); DOCS_BASE_PATH (the path the site is served under,
# e.g. /sectional for a project page; default: the root); DOCS_PORT (the port
# in the printed command, default 8000).
set -euo pipefail
cd "$(dirname "$0")/.."

readonly SWIFT=${SWIFT:-swift}
readonly MODULES=(Sectional SectionalServer SectionalTesting HTTPServer SectionalSQL SectionalSQLite SectionalPostgres SectionalSecurity SectionalAccounts)
readonly OUT=.build/docs
readonly SITE=$OUT/site
readonly BASE_PATH=${DOCS_BASE_PATH:-/}
readonly PORT=${DOCS_PORT:-8000}
say() { printf 'docs: [%3ds] %s\n' "$SECONDS" "$*" >&2; }
die() { printf 'docs: error: %s\n' "$*" >&2; exit 1; }

docc=${DOCC:-$(command -v docc || true)}
if [[ -z $docc ]]; then
    swift_path=$(command -v "$SWIFT") || die "$SWIFT is not on the PATH"
    docc="$(dirname "$(readlink -f "$swift_path")")/docc"
fi
[[ -x $docc ]] || die "docc not found (set DOCC, or put the Swift toolchain on the PATH)"

# Each module's graphs go to a folder of their own: DocC documents every
# module whose graphs it is given, and each archive must hold one.
work=$(mktemp -d -t sectional-docs.XXXXXX)
trap 'rm -rf "$work"' EXIT
mkdir -p "$OUT"

# Runs a DocC command, keeping its output; any warning fails the run, also
# one that --warnings-as-errors does not cover.
run_docc() {
    local log=$1; shift
    if ! "$docc" "$@" >"$log" 2>&1; then
        cat "$log" >&2
        die "docc $1 failed (log: $log)"
    fi
    if grep -q 'warning:' "$log"; then
        grep -A3 'warning:' "$log" >&2
        die "docc $1 warned (log: $log)"
    fi
}

# dump-symbol-graph loads every module of the package, the tests' too: build them first, or a
# fresh clone fails ("Couldn't load module 'SectionalPackageTests'").
say "building the package and its tests"
"$SWIFT" build --build-tests >"$OUT/build.log" 2>&1 || { tail -n 30 "$OUT/build.log" >&2; die "the build failed (log: $OUT/build.log)"; }

say "extracting symbol graphs (swift package dump-symbol-graph)"
graphs="$(dirname "$("$SWIFT" build --show-bin-path)")/symbolgraph"
for module in "${MODULES[@]}"; do rm -f "$graphs/$module.symbols.json" "$graphs/$module"@*.symbols.json; done
"$SWIFT" package dump-symbol-graph --skip-synthesized-members --minimum-access-level public --emit-extension-block-symbols >"$OUT/symbol-graph.log" 2>&1 \
    || { tail -n 30 "$OUT/symbol-graph.log" >&2; die "dump-symbol-graph failed (log: $OUT/symbol-graph.log)"; }

archives=()
for module in "${MODULES[@]}"; do
    [[ -f $graphs/$module.symbols.json ]] || die "no symbol graph for $module in $graphs"
    mkdir -p "$work/$module"
    cp "$graphs/$module.symbols.json" "$work/$module/"
    for extension in "$graphs/$module"@*.symbols.json; do
        [[ -e $extension ]] && cp "$extension" "$work/$module/"
    done
    say "docc convert $module ($(ls "$work/$module" | tr '\n' ' '))"
    rm -rf "$OUT/$module.doccarchive"
    run_docc "$OUT/$module.log" convert "Sources/$module/$module.docc" \
        --additional-symbol-graph-dir "$work/$module" \
        --output-dir "$OUT/$module.doccarchive" \
        --fallback-display-name "$module" --fallback-bundle-identifier "$module" \
        --warnings-as-errors \
        --transform-for-static-hosting --hosting-base-path "$BASE_PATH"
    archives+=("$OUT/$module.doccarchive")
done

say "docc merge into $SITE"
rm -rf "$SITE"
run_docc "$OUT/merge.log" merge "${archives[@]}" --output-path "$SITE" \
    --synthesized-landing-page-name Sectional --synthesized-landing-page-kind Package

# The site's root is DocC's web app, which has no page there: it leads to
# the landing page instead (a relative link, so any DOCS_BASE_PATH works).
cat >"$SITE/index.html" <<'HTML'
<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Sectional documentation</title>
<meta http-equiv="refresh" content="0; url=documentation/"></head>
<body><a href="documentation/">Sectional documentation</a></body></html>
HTML

say "doc coverage"
python3 scripts/doc-coverage.py "$graphs" "${MODULES[@]}" || die "public symbols without a summary line (above)"

base=${BASE_PATH%/}
echo
echo "The documentation of ${MODULES[*]} is one static site in $SITE."
if [[ -z $base ]]; then
    echo "To look at it, serve it:"
    echo
    echo "    python3 -m http.server -d $SITE $PORT"
    echo
    echo "then open http://localhost:$PORT/documentation/ (every module) or http://localhost:$PORT/documentation/sectional"
else
    echo "It is built to be served under $base/: publish the contents of $SITE there, then open $base/documentation/"
fi
