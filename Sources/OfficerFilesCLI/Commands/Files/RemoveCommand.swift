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
        positionals: [PositionalSpec("PATH", help: "remote path to remove (officer:/path or NAME:bucket/path)", variadic: true)])

    static func run(_ parsed: ParsedCommand, _ context: CommandContext) async throws {
        if let paths = try context.objectPaths(parsed.positionals) {
            if parsed.flag("queue") { throw CLIError.usage("--queue works with Officer paths only") }
            return try await ObjectStoreCommands.remove(paths, parsed, context)
        }
        let files = try context.files()
        let targets = try parsed.positionals.map { try context.remotePath($0) }
        if let top = targets.first(where: \.isRoot) {
            throw CLIError.refused("refusing to remove the top of root '\(top.root)'", .refused)
        }
        try await BatchRunner.run(targets, context: context) { target in
            try await WriteQueueing.perform(parsed, context, files) {
                QueuedWrite(kind: .remove, root: target.root, path: target.path, recursive: parsed.flag("recursive"))
            } work: {
                try await remove(target, files, parsed, context)
            }
        }
    }

    static func remove(_ target: RemotePath, _ files: OfficerFiles, _ parsed: ParsedCommand, _ context: CommandContext) async throws {
        do {
            let removed = try await files.remove(target, recursive: parsed.flag("recursive"))
            if context.global.verbose { context.say("removed \(target) (\(removed) entries)") }
        } catch let error as OfficerError {
            switch error {
            case .notFound where parsed.flag("force"): return
            case .conflict(let request, let message, "not_empty") where !parsed.flag("recursive"):
                throw OfficerError.conflict(
                    request: request, message: message + "; use rm -r for a folder and its contents", code: "not_empty")
            default: throw error
            }
        }
    }
}
