import Foundation
import PackagePlugin

/// Writes `BuildInfo.swift` before every build of a target that uses it: the
/// commit the binary is built from, for `--version`. A shell reads it from
/// git and rewrites the file only when it changed, so an unchanged commit
/// recompiles nothing; built outside a clone (the Docker image's build) the
/// commit is "unknown".
@main
struct BuildInfo: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildInfo.swift")
        let script = #"""
            commit=$(git -C "$1" rev-parse --short=12 HEAD 2>/dev/null) || commit=unknown
            if [ "$commit" != unknown ] && [ -n "$(git -C "$1" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
                commit="$commit with changes"
            fi
            text="/// The commit this binary was built from.
            let buildCommit = \"$commit\""
            [ "$(cat "$2" 2>/dev/null)" = "$text" ] || printf '%s\n' "$text" >"$2"
            """#
        return [
            .prebuildCommand(
                displayName: "Build info: the commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: ["-c", script, "build-info", context.package.directoryURL.path, output.path],
                outputFilesDirectory: context.pluginWorkDirectoryURL)
        ]
    }
}
