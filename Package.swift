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
    ],
    targets: [
        .systemLibrary(
            name: "CMicroHTTPD",
            pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]
        ),
        .target(name: "HTTPServer", dependencies: ["CMicroHTTPD"]),
        .target(name: "Sectional"),
        .target(name: "SectionalServer", dependencies: ["HTTPServer", "Sectional"]),
        .target(name: "SectionalTesting", dependencies: ["HTTPServer", "Sectional"]),
        .target(name: "FeedApp", dependencies: ["HTTPServer", "Sectional", "SectionalServer"]),
        .executableTarget(name: "feed-server", dependencies: ["FeedApp", "HTTPServer", "Sectional"]),
        .testTarget(name: "HTTPServerTests", dependencies: ["HTTPServer", "SectionalTesting"]),
        .testTarget(name: "SectionalTests", dependencies: ["Sectional", "SectionalTesting"]),
        .testTarget(name: "SectionalServerTests", dependencies: ["HTTPServer", "Sectional", "SectionalServer", "SectionalTesting"]),
        .testTarget(name: "FeedAppTests", dependencies: ["FeedApp", "HTTPServer", "Sectional", "SectionalServer", "SectionalTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
