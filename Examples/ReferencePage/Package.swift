// swift-tools-version:6.0
// A package outside Sectional that depends on it by path, as a team's app
// would by URL: it serves the reference page (a fixed 1.5 KB feed of three
// sections) with Sectional's public API only, and tests it with SectionalTesting.
import PackageDescription

let package = Package(
    name: "ReferencePage",
    dependencies: [
        .package(name: "Sectional", path: "../..")
    ],
    targets: [
        .target(
            name: "ReferencePage",
            dependencies: [
                .product(name: "Sectional", package: "Sectional"),
                .product(name: "SectionalServer", package: "Sectional"),
                .product(name: "HTTPServer", package: "Sectional"),
            ],
            resources: [.copy("data.json")]
        ),
        .executableTarget(name: "reference-server", dependencies: ["ReferencePage", .product(name: "HTTPServer", package: "Sectional")]),
        .testTarget(
            name: "ReferencePageTests",
            dependencies: [
                "ReferencePage",
                .product(name: "HTTPServer", package: "Sectional"),
                .product(name: "SectionalTesting", package: "Sectional"),
            ],
            resources: [.copy("reference.html")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
