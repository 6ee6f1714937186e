// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Sectional",
    products: [
        .executable(name: "feed-server", targets: ["feed-server"]),
        .library(name: "Sectional", targets: ["Sectional"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
        .library(name: "SectionalServer", targets: ["SectionalServer"]),
        .library(name: "SectionalTesting", targets: ["SectionalTesting"]),
        .library(name: "SectionalSecurity", targets: ["SectionalSecurity"]),
        .library(name: "SectionalAccounts", targets: ["SectionalAccounts"]),
        .library(name: "SectionalSQL", targets: ["SectionalSQL"]),
        .library(name: "SectionalSQLite", targets: ["SectionalSQLite"]),
        .library(name: "SectionalPostgres", targets: ["SectionalPostgres"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            // 1.0.1, built from Debian's source by `make deps` (scripts/install-libmicrohttpd.sh).
            pkgConfig: "libmicrohttpd"
        ),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Header only: libpq itself is opened at run time, by the first PostgreSQL connection.
        .systemLibrary(name: "CLibPQ", providers: [.apt(["libpq-dev"])]),
        .systemLibrary(name: "CSodium", pkgConfig: "libsodium", providers: [.apt(["libsodium-dev"])]),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "SectionalSecurity", dependencies: ["CSodium", "HTTPServer", "SectionalServer"]),
        .target(name: "SectionalSQL"),
        .target(name: "SectionalAccounts", dependencies: ["HTTPServer", "Sectional", "SectionalServer", "SectionalSecurity", "SectionalSQL"]),
        .target(name: "SectionalSQLite", dependencies: ["CSQLite", "SectionalSQL"]),
        .target(name: "SectionalPostgres", dependencies: ["CLibPQ", "SectionalSQL"]),
        .target(name: "Sectional"),
        .target(name: "SectionalServer", dependencies: ["HTTPServer", "Sectional", "SectionalSQL"]),
        .target(name: "SectionalTesting", dependencies: ["HTTPServer", "Sectional"]),
        .target(
            name: "FeedApp",
            dependencies: [
                "HTTPServer", "Sectional", "SectionalAccounts", "SectionalServer", "SectionalSecurity", "SectionalSQL", "SectionalSQLite",
                "SectionalPostgres",
            ]),
        .executableTarget(
            name: "feed-server", dependencies: ["FeedApp", "HTTPServer", "Sectional", "SectionalAccounts", "SectionalPostgres", "SectionalServer"],
            plugins: ["BuildInfo"]),
        // The commit feed-server is built from, for --version.
        .plugin(name: "BuildInfo", capability: .buildTool()),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "SectionalTesting"]),
        .testTarget(name: "SectionalTests", dependencies: ["Sectional", "SectionalTesting"]),
        .testTarget(name: "SectionalServerTests", dependencies: ["HTTPServer", "Sectional", "SectionalServer", "SectionalTesting"]),
        // What both of the app's test targets sign in with.
        .target(name: "FeedAppTestSupport", dependencies: ["FeedApp", "SectionalAccounts", "SectionalTesting"], path: "Tests/FeedAppTestSupport"),
        .testTarget(
            name: "DataTests",
            dependencies: [
                "FeedApp", "FeedAppTestSupport", "HTTPServer", "Sectional", "SectionalAccounts", "SectionalSecurity", "SectionalServer",
                "SectionalSQL", "SectionalSQLite", "SectionalPostgres", "SectionalTesting",
            ]),
        .testTarget(
            name: "FeedAppTests",
            dependencies: [
                "FeedApp", "FeedAppTestSupport", "HTTPServer", "Sectional", "SectionalAccounts", "SectionalSecurity", "SectionalServer",
                "SectionalTesting",
            ]),
    ],
    swiftLanguageModes: [.v6]
)

// A nonisolated async function runs on its caller's executor (Swift's coming default): without it each
// call on a page's path (route, load tree, render) hopped, to the same thread, at ~200 instructions a hop.
for target in package.targets where target.type != .system && target.type != .plugin {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
}
