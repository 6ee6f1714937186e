// swift-tools-version:6.0
// A new app on Sectional, to copy: one private page of two sections on
// SQLite, live, behind sign-in, with its migrations and its tests. It
// depends on Sectional by path; a team's copy depends on it by URL.
import PackageDescription

/// Sectional's libraries by name.
func sectional(_ names: String...) -> [Target.Dependency] { names.map { .product(name: $0, package: "Sectional") } }

let package = Package(
    name: "Starter",
    dependencies: [
        .package(name: "Sectional", path: "../..")
    ],
    targets: [
        .target(
            name: "Savings",
            dependencies: sectional(
                "HTTPServer", "Sectional", "SectionalAccounts", "SectionalSecurity", "SectionalServer", "SectionalSQL", "SectionalSQLite")
        ),
        .executableTarget(
            name: "savings-server",
            dependencies: ["Savings"] + sectional("HTTPServer", "SectionalAccounts", "SectionalServer", "SectionalSQL", "SectionalSQLite")
        ),
        .testTarget(
            name: "SavingsTests",
            dependencies: ["Savings"]
                + sectional("HTTPServer", "SectionalAccounts", "SectionalSecurity", "SectionalServer", "SectionalSQL", "SectionalTesting")
        ),
    ],
    swiftLanguageModes: [.v6]
)
