import Foundation
import PackagePlugin

/// Writes the CLI's version from `VERSION` (the one source: `--version`, the man page and the Debian package)
/// and, in a git checkout, the commit being built, as Swift the target compiles.
@main
struct VersionStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "BuildVersion.swift")
        // Rebuilt when the version or the checked-out commit changes (a missing file is simply not watched).
        let watched =
            ["VERSION", ".git/HEAD", ".git/packed-refs"] + (Self.currentRef(root).map { [".git/" + $0] } ?? [])
        let inputs = watched.map { root.appending(path: $0) }.filter { FileManager.default.fileExists(atPath: $0.path) }
        return [
            .buildCommand(
                displayName: "Stamping the version", executable: try context.tool(named: "version-stamp").url,
                arguments: [root.path, output.path], inputFiles: inputs, outputFiles: [output])
        ]
    }

    /// The branch file `.git/HEAD` names (`refs/heads/main`), if it names one.
    static func currentRef(_ root: URL) -> String? {
        guard let head = try? String(contentsOf: root.appending(path: ".git/HEAD"), encoding: .utf8),
            head.hasPrefix("ref: ")
        else { return nil }
        return head.dropFirst(5).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
