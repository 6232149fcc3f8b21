import FileModel
import Foundation
import Officer

/// `completion bash|zsh|fish`: the shell's completion script; and the hidden `__complete WORDS…` the scripts
/// ask for the words to offer.
enum CompletionCommand: Command {
    static let spec = CommandSpec(
        "completion", summary: "print the shell completion script (bash, zsh or fish)",
        discussion: """
            bash:  officer-files completion bash > ~/.local/share/bash-completion/completions/officer-files
            zsh:   officer-files completion zsh > "${fpath[1]}/_officer-files"
            fish:  officer-files completion fish > ~/.config/fish/completions/officer-files.fish
            make install puts all three where the shells look. Remote paths complete from the cached listing
            (a folder never listed is asked of the server once, for at most two seconds).
            """,
        positionals: [PositionalSpec("SHELL", help: "bash, zsh or fish")])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let shell = parsed.positionals[0]
        guard let script = CompletionScript.script(for: shell) else {
            throw ArgumentError.invalidValue(
                option: "SHELL", value: shell, reason: CompletionScript.shells.joined(separator: ", "))
        }
        context.console.printRaw(script)
    }

    /// The words after `__complete --`: prints one candidate per line (never an error: a shell shows nothing).
    static func answer(_ words: [String], context: CommandContext) async -> String {
        let config = try? context.configStore.load()
        let remotes =
            ["officer"] + Array((config?.officers ?? [:]).keys).sorted() + Array((config?.remotes ?? [:]).keys).sorted()
        let files = try? context.files()
        let engine = CompletionEngine(
            parser: OfficerFilesApp.parser,
            listFolder: { folder in
                guard let files else { return nil }
                return await Self.entries(of: folder, files)
            },
            remoteNames: remotes, parseLocation: { try? context.location($0) })
        return await engine.complete(words.isEmpty ? [""] : words).lines
    }

    /// A folder's entries from the cached listing, or asked of the server with a two-second limit.
    static func entries(of folder: Location, _ files: OfficerFiles) async -> [RemoteEntry]? {
        if let cached = files.cachedListing(of: folder) { return cached.entries }
        return await withTaskGroup(of: [RemoteEntry]?.self) { group in
            group.addTask { try? await files.list(folder).entries }
            group.addTask {
                try? await Task.sleep(nanoseconds: 2_000_000_000)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
