import FileModel
import HTTP
import Officer
import Transfer

/// What `mv` and `cp` share: many sources into a folder, or one source to a new name, like mv(1) and cp(1).
enum RelocateCommand {
    enum Action {
        case move, copy
    }

    static func run(_ action: Action, _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let paths = try parsed.positionals.map { try context.remotePath($0) }
        let sources = Array(paths.dropLast())
        let destination = paths.last!
        let destinationEntry = try await files.statIfExists(destination)
        let intoFolder = destinationEntry?.isDirectory ?? false
        if sources.count > 1, !intoFolder {
            throw CLIError.usage("with several sources, \(destination) must be an existing folder")
        }
        try await BatchRunner.run(sources, context: context) { source in
            let target = intoFolder ? try destination.appending(source.name) : destination
            if action == .copy, !parsed.flag("recursive"), try await files.stat(source).isDirectory {
                throw CLIError.refused("\(source) is a folder: use cp -r", .refused)
            }
            // An existing target is a conflict; the message names --force (CommandContext.describe).
            let entry: FileEntry
            switch action {
            case .move: entry = try await files.move(source, to: target, overwrite: parsed.flag("force"))
            case .copy: entry = try await files.copy(source, to: target, overwrite: parsed.flag("force"))
            }
            if context.global.json {
                context.printJSON(entry)
            } else if context.global.verbose {
                context.say("\(source) -> \(target)")
            }
        }
    }
}

/// `mv`: move or rename within one root.
enum MoveCommand: Command {
    static let spec = CommandSpec(
        "mv", summary: "move or rename remote files and folders",
        options: [OptionSpec(["--force", "-f"], help: "replace an existing file at the destination")],
        positionals: [
            PositionalSpec("SOURCE", help: "remote path(s) to move", variadic: true),
            PositionalSpec("DEST", help: "new path, or an existing folder to move into"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await RelocateCommand.run(.move, parsed, context)
    }
}

/// `cp`: copy within one root.
enum CopyCommand: Command {
    static let spec = CommandSpec(
        "cp", summary: "copy remote files and folders on the server",
        options: [
            OptionSpec(["--recursive", "-r"], help: "copy folders"),
            OptionSpec(["--force", "-f"], help: "replace an existing file at the destination"),
        ],
        positionals: [
            PositionalSpec("SOURCE", help: "remote path(s) to copy", variadic: true),
            PositionalSpec("DEST", help: "new path, or an existing folder to copy into"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await RelocateCommand.run(.copy, parsed, context)
    }
}
