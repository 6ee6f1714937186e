#!/usr/bin/env bash
# `make package-check`: Sectional as a team would use it, by a tagged git URL.
#
#  1. Clones this repository's HEAD into a temporary folder and tags the clone
#     0.2.0 (nothing is tagged or changed here).
#  2. Writes a small package beside it that depends on the clone with
#     `.package(url: "file://…", from: "0.2.0")`, declares one composed page
#     of its own (two sections, one store) with the public API only, and
#     builds it in release.
#  3. Starts it on a free loopback port, checks the page, a fragment, the
#     JSON and a bad request, and stops it.
#
# Everything it starts is stopped and its folder removed on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

readonly SWIFT=${SWIFT:-swift}
say() { printf 'package-check: %s\n' "$*" >&2; }
die() { printf 'package-check: error: %s\n' "$*" >&2; exit 1; }

work=$(mktemp -d -t sectional-package-check.XXXXXX)
server_pid=
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

say "cloning HEAD ($(git rev-parse --short HEAD)) and tagging the clone 0.2.0"
git clone --quiet --no-hardlinks "file://$PWD" "$work/sectional"
git -C "$work/sectional" tag 0.2.0

mkdir -p "$work/tide/Sources/tide"
cat >"$work/tide/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "tide",
    dependencies: [.package(url: "file://$work/sectional", from: "0.2.0")],
    targets: [
        .executableTarget(name: "tide", dependencies: [
            .product(name: "Sectional", package: "sectional"),
            .product(name: "SectionalServer", package: "sectional"),
            .product(name: "HTTPServer", package: "sectional"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
MANIFEST
cat >"$work/tide/Sources/tide/main.swift" <<'SOURCE'
import HTTPServer
import Sectional
import SectionalServer

/// Tide times for a harbour: a page of its own, served by Sectional.
struct TideStore: Sendable {
    func highWater() async throws -> [String] { ["06:12", "18:40"] }
    func harbour() async throws -> String { "St Ives <Cornwall>" }
}

final class HarbourSection: SectionController, CatalogSection {
    static let id: SectionID = "harbour"
    static let title = "Harbour"
    let store: TideStore
    var name = ""
    init(store: TideStore) {
        self.store = store
        super.init(id: Self.id, title: Self.title)
    }
    override func makeLoad() -> SectionLoad? { SectionLoad({ [store] in try await store.harbour() }) { self.name = $0 } }
    override func render(into html: inout HTMLWriter) { p(.class("harbour")) { name }.render(into: &html) }
}

final class HighWaterSection: SectionController, CatalogSection {
    static let id: SectionID = "high-water"
    static let title = "High water"
    let store: TideStore
    var times: [String] = []
    init(store: TideStore) {
        self.store = store
        super.init(id: Self.id, title: Self.title)
    }
    override func makeLoad() -> SectionLoad? { SectionLoad({ [store] in try await store.highWater() }) { self.times = $0 } }
    override func render(into html: inout HTMLWriter) { ul { for time in times { li { time } } }.render(into: &html) }
}

struct TidePage: ComposedPage {
    let name = "tides"
    let title = "Tides"
    let isPublic = true  // tide tables are nobody's own
    let catalog: PageCatalog<Void>
    init(store: TideStore) {
        catalog = PageCatalog([
            .section(HarbourSection.self) { _ in HarbourSection(store: store) },
            .section(HighWaterSection.self) { _ in HighWaterSection(store: store) },
        ], defaults: [HarbourSection.self, HighWaterSection.self])
    }
}

let site = Site(name: "Tide", head: DocumentHead(language: "en"), home: .init(path: "/tides", label: "Tides"))
var router = Router()
router.useErrorPages(of: site)
router.addPage(TidePage(store: TideStore()), in: site)
var configuration = ServerConfiguration()
configuration.port = 0
configuration.accessLog = false
let server = try Server.start(configuration, responder: router)
Logger.standardError.info("port \(server.port)")
TerminationSignals.block()
_ = TerminationSignals.wait()
server.stop()
SOURCE

say "building the outside package in release (resolves Sectional from the tag)"
(cd "$work/tide" && "$SWIFT" build -c release >"$work/build.log" 2>&1) || { tail -30 "$work/build.log"; die "the outside package does not build"; }
grep -q '"version" : "0.2.0"' "$work/tide/Package.resolved" || die "Package.resolved does not pin Sectional 0.2.0"

"$work/tide/.build/release/tide" 2>"$work/stderr" &
server_pid=$!
port=
for _ in $(seq 100); do
    port=$(sed -n 's/.* info port //p' "$work/stderr")
    [[ -n $port ]] && break
    sleep 0.1
done
[[ -n $port ]] || die "the server did not start: $(cat "$work/stderr")"
base="http://127.0.0.1:$port"

check() {  # check NAME EXPECTED-STATUS URL TEXT
    local body status
    body=$(curl -s -w '\n%{http_code}' "$3")
    status=${body##*$'\n'}
    [[ $status == "$2" ]] || die "$1: status $status, expected $2"
    [[ $body == *"$4"* ]] || die "$1: the answer lacks '$4'"
    say "ok: $1 ($status)"
}
check "the page" 200 "$base/tides" '<p class="harbour">St Ives &lt;Cornwall&gt;</p>'
check "the page's composition" 200 "$base/tides?sections=high-water" '<li>06:12</li>'
check "a fragment" 200 "$base/tides/sections/high-water" 'id="section-high-water"'
check "the JSON" 200 "$base/api/tides/sections" '"fragment":"/tides/sections/harbour"'
check "an unknown section" 400 "$base/tides?add=moon" '<li>harbour</li><li>high-water</li>'
say "Sectional 0.2.0 by git URL: built in release and served a composed page"
