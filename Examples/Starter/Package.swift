// swift-tools-version:6.0
// A new app on Sectional, to copy: one private page of two sections on
// SQLite, live, behind sign-in, with its migrations and its tests. It
// depends on Sectional by path; a team's copy depends on it by URL.
import PackageDescription

let package = Package(
    name: "Starter",
    dependencies: [
        .package(name: "Sectional", path: "../..")
    ],
    targets: [
        .target(
            name: "Savings",
            dependencies: [
                .product(name: "HTTPServer", package: "Sectional"),
                .product(name: "Sectional", package: "Sectional"),
                .product(name: "SectionalAccounts", package: "Sectional"),
                .product(name: "SectionalSecurity", package: "Sectional"),
                .product(name: "SectionalServer", package: "Sectional"),
                .product(name: "SectionalSQL", package: "Sectional"),
                .product(name: "SectionalSQLite", package: "Sectional"),
            ]
        ),
        .executableTarget(
            name: "savings-server",
            dependencies: [
                "Savings",
                .product(name: "HTTPServer", package: "Sectional"),
                .product(name: "SectionalAccounts", package: "Sectional"),
                .product(name: "SectionalSecurity", package: "Sectional"),
                .product(name: "SectionalServer", package: "Sectional"),
                .product(name: "SectionalSQL", package: "Sectional"),
                .product(name: "SectionalSQLite", package: "Sectional"),
            ]
        ),
        .testTarget(
            name: "SavingsTests",
            dependencies: [
                "Savings",
                .product(name: "HTTPServer", package: "Sectional"),
                .product(name: "SectionalAccounts", package: "Sectional"),
                .product(name: "SectionalSecurity", package: "Sectional"),
                .product(name: "SectionalServer", package: "Sectional"),
                .product(name: "SectionalSQL", package: "Sectional"),
                .product(name: "SectionalTesting", package: "Sectional"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
