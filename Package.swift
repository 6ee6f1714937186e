// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Sectional",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "feed-server", targets: ["feed-server"]),
        .library(name: "Sectional", targets: ["Sectional"]),
        .library(name: "HTTPServer", targets: ["HTTPServer"]),
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "Sectional", swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
        .target(name: "FeedApp", dependencies: ["HTTPServer", "Sectional"]),
        .executableTarget(name: "feed-server", dependencies: ["FeedApp", "HTTPServer"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer"]),
        .testTarget(name: "SectionalTests", dependencies: ["Sectional"]),
        .testTarget(name: "FeedAppTests", dependencies: ["FeedApp", "HTTPServer", "Sectional"]),
    ],
    swiftLanguageModes: [.v6]
)
