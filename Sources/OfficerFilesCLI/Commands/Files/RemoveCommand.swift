import FileModel
import HTTP
import Officer
import Transfer

/// `rm`: remote files, and folders with `-r`.
enum RemoveCommand: Command {
    static let spec = CommandSpec(
        "rm", summary: "remove remote files or folders",
        options: [
            OptionSpec(["--recursive", "-r"], help: "remove folders and everything in them"),
            OptionSpec(["--force", "-f"], help: "a path that does not exist is not an error"),
            WriteQueueing.option,
        ],
        positionals: [
            PositionalSpec(
                "PATH", help: "remote path to remove (officer:/path, NAME:/path or NAME:bucket/path)", variadic: true)
        ])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        let files = try context.files()
        let targets = try parsed.positionals.map { try context.location($0, plain: .officer) }
        // Refused before anything goes, not after the paths before it.
        if let top = targets.first(where: \.isTopOfRoot) { throw FrontDoorRefusal.topOfRoot(top.description) }
        try await BatchRunner.run(targets, context: context) { target in
            try await WriteQueueing.perform(
                parsed, context, files, change: .remove(target, recursive: parsed.flag("recursive"))
            ) {
                try await remove(target, files, parsed, context)
            }
        }
    }

    static func remove(_ target: Location, _ files: OfficerFiles, _ parsed: ParsedCommand, _ context: CommandContext)
        async throws
    {
        do {
            let removed = try await files.remove(target, recursive: parsed.flag("recursive"))
            if context.global.json {
                context.printJSON(RemovedRecord(path: target.description, entries: removed))
            } else if context.global.verbose {
                context.say("removed \(target) (\(CountFormat.string(removed, "entry", "entries")))")
            }
        } catch {
            // (A `catch where` on this typed error crashes Swift 6.3's ownership verifier.)
            if parsed.flag("force"), error.category == .notFound { return }
            throw error
        }
    }
}
