import FileModel
import Officer
import Transfer

/// What `mv` and `cp` share: many sources into a folder, or one source to a new name, like mv(1) and cp(1).
enum RelocateCommand {
    enum Action {
        case move, copy
    }

    static func run(_ action: Action, _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let locations = try parsed.positionals.map { try context.location($0, plain: .officer) }
        let sources = Array(locations.dropLast())
        let destination = locations.last!
        let force = parsed.flag("force")
        let recursive = parsed.flag("recursive")
        let plan = try await files.planRelocation(
            of: sources, to: destination, copy: action == .copy, recursive: recursive, parents: parsed.flag("parents"),
            queueing: parsed.flag("queue"))
        var queueAtOnce = plan.queueAtOnce
        try await WriteQueueing.makeFirst(plan.folderToMake, parsed, context, files, queueAtOnce: &queueAtOnce)
        try await BatchRunner.run(sources, context: context) { source in
            let change: FileChange =
                action == .move
                ? .move(source, to: destination, overwrite: force)
                : .copy(source, to: destination, overwrite: force, recursive: recursive)
            try await WriteQueueing.perform(parsed, context, files, change: change, queueAtOnce: &queueAtOnce) {
                let entry =
                    action == .move
                    ? try await files.move(source, to: destination, overwrite: force)
                    : try await files.copy(source, to: destination, overwrite: force, recursive: recursive)
                if context.global.json {
                    context.printJSON(
                        MovedRecord(
                            source: source.description, destination: entry.location.description,
                            kind: EntryRecord.kind(entry.kind), size: entry.isFolder ? nil : entry.size))
                } else if context.global.verbose {
                    context.say("\(source) -> \(entry.location)")
                }
            }
        }
    }
}

/// `mv`: move or rename within one root.
enum MoveCommand: Command {
    static let spec = CommandSpec(
        "mv", summary: "move or rename remote files and folders",
        options: [
            OptionSpec(["--force", "-f"], help: "replace an existing file at the destination"),
            OptionSpec(["--parents", "-p"], help: "make the destination's missing folders first"),
            WriteQueueing.option,
        ],
        positionals: [
            PositionalSpec(
                "SOURCE", help: "remote path(s) to move (Officer or S3; one remote per command)", variadic: true),
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
            OptionSpec(["--parents", "-p"], help: "make the destination's missing folders first"),
            WriteQueueing.option,
        ],
        positionals: [
            PositionalSpec(
                "SOURCE", help: "remote path(s) to copy (Officer or S3; one remote per command)", variadic: true),
            PositionalSpec("DEST", help: "new path, or an existing folder to copy into"),
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        try await RelocateCommand.run(.copy, parsed, context)
    }
}
