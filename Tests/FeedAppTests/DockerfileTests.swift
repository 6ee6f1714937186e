import Foundation
import Testing

/// The Dockerfile agrees with the Makefile and with the binary it ships.
///
/// `make docker-check` builds the image for real, in minutes; these checks take
/// milliseconds and catch the drift that would make that build differ from a
/// local `make release`, or the image lack a library the server needs.
@Suite("Dockerfile")
struct DockerfileTests {
    /// Every shared library `feed-server` links in a release build, and the Debian
    /// package that provides it (`readelf -d .build/release/feed-server`).
    /// The libraries of those libraries come with the packages' own dependencies.
    static let linkedLibraries: [String: String] = [
        "libsqlite3.so.0": "libsqlite3-0",
        "libpq.so.5": "libpq5",
        "libsodium.so.23": "libsodium23",
        "libstdc++.so.6": "libstdc++6",
        "libgcc_s.so.1": "libgcc-s1",
        "libm.so.6": "libc6",
        "libc.so.6": "libc6",
        "ld-linux-x86-64.so.2": "libc6",
        "ld-linux-aarch64.so.1": "libc6",
    ]

    /// Libraries of Package.swift linked in statically, and the script that builds
    /// each from pinned source in the build stage, as `make deps` does.
    static let builtFromSource: [String: String] = ["libmicrohttpd": "scripts/install-libmicrohttpd.sh"]

    /// Part of every Debian image: no need to install it.
    static let basePackages: Set<String> = ["libc6"]

    let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The Makefile with the files it includes (`-include make/*.mk`).
    func makefile() throws -> String {
        let included = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("make").path)
            .filter { $0.hasSuffix(".mk") }.sorted()
        return try ([text("Makefile")] + included.map { try text("make/\($0)") }).joined(separator: "\n")
    }

    func dockerfile() throws -> Dockerfile {
        let dockerfile = Dockerfile(try text("Dockerfile"))
        try #require(dockerfile.stages.count >= 2, "the Dockerfile should have a build stage and a runtime stage")
        return dockerfile
    }

    @Test("the build stage runs the Makefile's release build command")
    func buildCommand() throws {
        let release = try #require(Makefile.value(of: "RELEASE_BUILD", in: try makefile()), "RELEASE_BUILD in the Makefile")
        let expected = Dockerfile.normalized(release.replacingOccurrences(of: "$(SWIFT)", with: "swift"))
        let build = try dockerfile().stages[0]
        let commands = build.runCommands.flatMap(Dockerfile.commands(in:))
        #expect(commands.contains(expected), "the build stage should run `\(expected)`, as `make release` does; it runs: \(commands)")
    }

    @Test("the build stage uses the Swift version of the Makefile, no older than Package.swift's tools")
    func swiftVersion() throws {
        let version = try #require(Makefile.value(of: "SWIFT_VERSION", in: try makefile()), "SWIFT_VERSION in make/docker.mk")
        let image = try dockerfile().stages[0].image
        let tag = try #require(
            image.wholeMatch(of: /swift:([0-9.]+)-([a-z]+)(-slim)?/), "the build stage should be FROM swift:<version>-<debian release>, not \(image)")
        #expect(String(tag.1) == version, "the Dockerfile builds with Swift \(tag.1), the Makefile says SWIFT_VERSION = \(version)")

        let manifest = try text("Package.swift")
        let tools = try #require(manifest.firstMatch(of: /swift-tools-version:\s*([0-9.]+)/), "swift-tools-version in Package.swift")
        #expect(
            !Self.components(version).lexicographicallyPrecedes(Self.components(String(tools.1))),
            "Package.swift needs Swift tools \(tools.1), newer than the image's Swift \(version)")
    }

    @Test("both stages are the same Debian release, so the binary finds the C libraries it was built against")
    func debianRelease() throws {
        let stages = try dockerfile().stages
        let build = try #require(stages[0].image.firstMatch(of: /-(bookworm|trixie|bullseye|noble|jammy)/)?.1)
        let runtime = try #require(
            stages[stages.count - 1].image.wholeMatch(of: /debian:([a-z]+)(-slim)?/)?.1,
            "the runtime stage should be FROM debian:<release>-slim, not \(stages[stages.count - 1].image)")
        #expect(build == runtime, "built on \(build), run on \(runtime)")
    }

    @Test("the runtime stage installs a package for every library the binary links")
    func runtimePackages() throws {
        let installed = try dockerfile().stages.last!.aptPackages
        for (library, package) in Self.linkedLibraries.sorted(by: { $0.key < $1.key }) where !Self.basePackages.contains(package) {
            #expect(
                installed.contains(package),
                "feed-server links \(library): the runtime stage should apt-get install \(package) (it installs \(installed.sorted()))")
        }
    }

    @Test("every system library of Package.swift is in the list of linked libraries, or built from source in the build stage")
    func systemLibraries() throws {
        let manifest = try text("Package.swift")
        let buildStage = try dockerfile().stages[0].runCommands.joined(separator: "\n")
        for match in manifest.matches(of: /pkgConfig:\s*"([^"]+)"/) {
            let name = String(match.1)
            if let script = Self.builtFromSource[name] {
                let fileName = String(script.split(separator: "/").last!)
                #expect(buildStage.contains(fileName), "the build stage should build \(name) with \(script), as `make deps` does")
                continue
            }
            let prefix = (name.hasPrefix("lib") ? name : "lib" + name) + ".so"
            #expect(
                Self.linkedLibraries.keys.contains { $0.hasPrefix(prefix) },
                "Package.swift links \(name) (pkg-config): add its \(prefix).N and its runtime package to DockerfileTests.linkedLibraries and the Dockerfile"
            )
        }
    }

    /// The `feed-server` binaries built beside this test: debug, and release if `make release` ran.
    static let builtBinaries: [URL] = {
        guard let test = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else { return [] }
        let directory = URL(fileURLWithPath: test).deletingLastPathComponent()
        return [
            directory.appendingPathComponent("feed-server"),
            directory.deletingLastPathComponent().appendingPathComponent("release/feed-server"),
        ].filter { FileManager.default.isExecutableFile(atPath: $0.path) }
    }()

    @Test("the list of linked libraries covers what the built binaries link")
    func builtBinariesLinks() throws {
        // `make test` builds feed-server beside the tests: without it this test would check nothing.
        try #require(!Self.builtBinaries.isEmpty, "no feed-server binary beside the tests")
        for binary in Self.builtBinaries {
            let elf = try ELFDynamicSection(contentsOf: binary)
            // Libraries found through RUNPATH come from the Swift toolchain: a debug build
            // links them dynamically, the release build (--static-swift-stdlib) statically.
            let toolchain = elf.runPaths.filter { !$0.contains("$ORIGIN") }
            for library in elf.neededLibraries {
                if toolchain.contains(where: { FileManager.default.fileExists(atPath: "\($0)/\(library)") }) { continue }
                #expect(
                    Self.linkedLibraries[library] != nil,
                    "\(binary.path) links \(library), which no package of the runtime stage is known to provide: add it to DockerfileTests.linkedLibraries and its package to the Dockerfile"
                )
            }
        }
    }

    static func components(_ version: String) -> [Int] {
        var parts = version.split(separator: ".").map { Int($0) ?? 0 }
        while parts.count < 3 { parts.append(0) }
        return parts
    }
}

/// Variables of a Makefile, as `NAME = value` (or `:=`, `?=`).
enum Makefile {
    static func value(of name: String, in text: String) -> String? {
        for line in text.split(separator: "\n") where !line.hasPrefix("\t") && !line.hasPrefix("#") {
            let parts = line.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let left = parts[0].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: ":?+"))
            if left.trimmingCharacters(in: .whitespaces) == name {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}

/// A Dockerfile as stages of instructions: continuation lines joined, comments dropped.
struct Dockerfile {
    struct Stage {
        var image: String
        var instructions: [(keyword: String, arguments: String)] = []

        var runCommands: [String] { instructions.filter { $0.keyword == "RUN" }.map(\.arguments) }

        /// The packages named by `apt-get install` in this stage's RUN commands.
        var aptPackages: Set<String> {
            var packages = Set<String>()
            for command in runCommands.flatMap(Dockerfile.commands(in:)) {
                let words = command.split(separator: " ").map(String.init)
                guard words.first == "apt-get" || words.first == "apt", let install = words.firstIndex(of: "install") else { continue }
                packages.formUnion(words[(install + 1)...].filter { !$0.hasPrefix("-") })
            }
            return packages
        }
    }

    var stages: [Stage] = []

    init(_ text: String) {
        var logical = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("#") || (trimmed.isEmpty && !logical.isEmpty) { continue }
            if trimmed.hasSuffix("\\") {
                logical += trimmed.dropLast() + " "
                continue
            }
            add(logical + trimmed)
            logical = ""
        }
        add(logical)
    }

    private mutating func add(_ line: String) {
        let words = line.split(separator: " ", maxSplits: 1)
        guard let first = words.first else { return }
        let keyword = first.uppercased()
        let arguments = words.count > 1 ? Self.normalized(String(words[1])) : ""
        if keyword == "FROM" {
            let image = arguments.split(separator: " ").first { !$0.hasPrefix("--") } ?? ""
            stages.append(Stage(image: String(image)))
        } else if !stages.isEmpty {
            stages[stages.count - 1].instructions.append((keyword, arguments))
        }
    }

    /// The simple commands of a shell command line (split at `&&`, `||`, `;`, `|`), whitespace collapsed.
    static func commands(in line: String) -> [String] {
        line.split(separator: /&&|\|\||;|\|/).map { normalized(String($0)) }.filter { !$0.isEmpty }
    }

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }
}

/// The dynamic section of a 64-bit little-endian ELF file: what `readelf -d` shows.
struct ELFDynamicSection {
    var neededLibraries: [String] = []
    var runPaths: [String] = []

    struct NotELF: Error, CustomStringConvertible {
        var path: String
        var description: String { "\(path) is not a 64-bit little-endian ELF file" }
    }

    init(contentsOf url: URL) throws {
        let file = try FileHandle(forReadingFrom: url)
        defer { try? file.close() }
        func read(_ count: Int, at offset: UInt64) throws -> Data {
            try file.seek(toOffset: offset)
            let data = try file.read(upToCount: count) ?? Data()
            guard data.count == count else { throw NotELF(path: url.path) }
            return data
        }
        func integer<T: FixedWidthInteger>(_ data: Data, _ offset: Int, as type: T.Type) -> T {
            T(littleEndian: data.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) })
        }

        let header = try read(64, at: 0)
        guard header.starts(with: [0x7F, 0x45, 0x4C, 0x46, 2, 1]) else { throw NotELF(path: url.path) }
        let sectionTable = integer(header, 0x28, as: UInt64.self)
        let sectionSize = Int(integer(header, 0x3A, as: UInt16.self))
        let sectionCount = Int(integer(header, 0x3C, as: UInt16.self))
        let sections = try read(sectionSize * sectionCount, at: sectionTable)
        func section(_ index: Int) -> (type: UInt32, offset: UInt64, size: Int, link: Int) {
            let base = index * sectionSize
            return (
                integer(sections, base + 4, as: UInt32.self), integer(sections, base + 0x18, as: UInt64.self),
                Int(integer(sections, base + 0x20, as: UInt64.self)), Int(integer(sections, base + 0x28, as: UInt32.self))
            )
        }

        let sectionTypeDynamic: UInt32 = 6
        guard let dynamic = (0..<sectionCount).map(section).first(where: { $0.type == sectionTypeDynamic }) else { return }
        let strings = section(dynamic.link)
        let stringTable = try read(strings.size, at: strings.offset)
        let entries = try read(dynamic.size, at: dynamic.offset)
        func string(at offset: Int) -> String {
            let bytes = stringTable[(stringTable.startIndex + offset)...].prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
        let (needed, runPath, rPath): (Int64, Int64, Int64) = (1, 29, 15)
        for entry in stride(from: 0, to: entries.count, by: 16) {
            let tag = integer(entries, entry, as: Int64.self)
            if tag == 0 { break }
            let value = Int(integer(entries, entry + 8, as: UInt64.self))
            switch tag {
            case needed: neededLibraries.append(string(at: value))
            case runPath, rPath: runPaths += string(at: value).split(separator: ":").map(String.init)
            default: continue
            }
        }
    }
}
